import { failpoint } from '../failpoints.js';

/**
 * Names of schema records — collections, databases, indexes, roles (DEC-049). As the real service (fauna/faunadb
 * `Parsing.scala`, `SchemaNames.scala`): a name is made of letters, digits, marks, connector punctuation and
 * `;@+$-_.!~%`, and is not one of the names the service description reserves.
 */

/** The names SD §Index and §Collection reserve for the service's own paths. */
export const RESERVED_NAMES: readonly string[] = ['events', 'sets', 'self', 'instances', '_'];

// Implements: COLL-CREATE-009
// Java's `[;@+$\-_.!~%\w]+` with UNICODE_CHARACTER_CLASS, where \w is alphabetic, marks, decimal digits, connector
// punctuation and the two join controls.
const NAME_CHARACTERS = /^[;@+$\-_.!~%\p{Alphabetic}\p{Mn}\p{Me}\p{Mc}\p{Nd}\p{Pc}\u200c\u200d]+$/u;

// Implements: COLL-CREATE-009, COLL-CREATE-010, COLL-CREATE-011
/** What is wrong with a record name, as a validation failure's code and description, or undefined when nothing is. */
export function nameProblem(name: string): { code: 'reserved name' | 'invalid characters'; description: string } | undefined {
  if (RESERVED_NAMES.includes(name))
    return { code: 'reserved name', description: `Invalid name ${name}. Reserved names: ${RESERVED_NAMES.join(', ')}.` };
  if (!NAME_CHARACTERS.test(name) || (!/^[A-Za-z0-9_-]+$/.test(name) && failpoint('NAME-ASCII-ONLY')))
    return { code: 'invalid characters', description: `The name ${name} uses invalid characters.` };
  return undefined;
}
