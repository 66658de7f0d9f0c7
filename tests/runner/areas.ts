/** The suite areas (folders under tests/conformance/), the values `--area` accepts. */
export const AREAS = ['core', 'auth', 'indexes', 'ordering', 'paging', 'events'] as const;
export type Area = (typeof AREAS)[number];
