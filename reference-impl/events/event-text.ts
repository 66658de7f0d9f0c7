/** Events as they go out: one JSON text each, streams separating them with a line break. */
export const EVENT_SEPARATOR = '\r\n';

export function stringifyEvent(event: object): string {
  return JSON.stringify(event, (_key, value: unknown) => (typeof value === 'bigint' ? Number(value) : value));
}
