// The whole fault catalogue: one table of rows per spec area (`<area>.json`), with the code of the faults that are code
// (`<area>.ts`), in the order of the spec.
import type { Fault } from '../fault.js';
import { code as protocol } from './protocol.js';
import { code as transactions } from './transactions.js';
import { code as collectionsAndDocuments } from './collections-and-documents.js';
import { code as databasesAndKeys } from './databases-and-keys.js';
import { code as limits } from './limits.js';
import { code as authentication } from './authentication.js';
import { code as abac } from './abac.js';
import { code as indexes } from './indexes.js';
import { code as sets } from './sets.js';
import { code as ordering } from './ordering.js';
import { code as paging } from './paging.js';
import { code as events } from './events.js';
import { code as eventSources } from './event-sources.js';
import { code as feeds } from './feeds.js';
import { code as streams } from './streams.js';
import { code as v4Streams } from './v4-streams.js';
import { code as userFunctions } from './user-functions.js';
import { code as functionsKeys } from './functions-keys.js';
import { code as functionsSets } from './functions-sets.js';
import { code as functionsHistory } from './functions-history.js';
import { code as fql10 } from './fql10.js';
import { loadArea, type AreaFaults } from './lib/table.js';

export const CATALOGUE: readonly AreaFaults[] = [
  loadArea('protocol', protocol),
  loadArea('transactions', transactions),
  loadArea('collections-and-documents', collectionsAndDocuments),
  loadArea('databases-and-keys', databasesAndKeys),
  loadArea('document-ttl'),
  loadArea('limits', limits),
  loadArea('authentication', authentication),
  loadArea('abac', abac),
  loadArea('indexes', indexes),
  loadArea('sets', sets),
  loadArea('ordering', ordering),
  loadArea('paging', paging),
  loadArea('events', events),
  loadArea('event-sources', eventSources),
  loadArea('feeds', feeds),
  loadArea('streams', streams),
  loadArea('v4-streams', v4Streams),
  loadArea('user-functions', userFunctions),
  loadArea('functions-numbers'),
  loadArea('functions-strings'),
  loadArea('functions-collections'),
  loadArea('functions-keys', functionsKeys),
  loadArea('functions-math'),
  loadArea('functions-time'),
  loadArea('functions-sets', functionsSets),
  loadArea('functions-history', functionsHistory),
  loadArea('functions-history-writes'),
  loadArea('functions-format'),
  loadArea('fql10', fql10),
];

export const FAULTS: readonly Fault[] = CATALOGUE.flatMap((area) => area.faults);

export function findFault(id: string): Fault | undefined {
  return FAULTS.find((fault) => fault.id === id);
}
