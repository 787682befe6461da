/**
 * Who may touch which items of the one table: plain data, read by the roles the infrastructure
 * builds (handler-role.ts) and by the tests that check them against the template and against what
 * the handlers really do (test/api-coverage/iam.test.ts).
 *
 * IAM sees an item by its partition key (`dynamodb:LeadingKeys`; for a Query on an index, the
 * index's partition key), so the table's items are named here by their partition families, the
 * key shapes of shared/data/*. A grant is a family and the item actions allowed on it. A role gets
 * only the families it is granted (`ForAllValues:StringLike` on the leading keys), and a guarded
 * family that a broader pattern would cover (webhook secrets under `C#*`) is denied outright to
 * every role not granted it.
 *
 * Every operation's role follows from its route row: its `area`, whether it is public
 * (`permission: null`), and, where an area declares it, its permission. An area not declared here
 * gets the tenant profile (its company's items and id sequences); its public operations get only
 * what every public function does. So a new operation inherits least privilege from its row, and
 * a family beyond those is a line here.
 */
import { table, type IndexName } from '../shared/data/table';
import type { Route } from '../shared/routes';

/**
 * The item actions of the data layer (no Scan, no BatchWriteItem: nothing sends them). `Query` is
 * a Query of the table; `Query:gsi1` one of that index (the same IAM action on the index's ARN).
 */
export type ItemAction =
  | 'GetItem'
  | 'BatchGetItem'
  | 'Query'
  | `Query:${IndexName}`
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'ConditionCheckItem';
const indexQueries = table.indexes.map((i): ItemAction => `Query:${i.name}`);
export const itemActions: readonly ItemAction[] = [
  'GetItem',
  'BatchGetItem',
  'Query',
  ...indexQueries,
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'ConditionCheckItem',
];

/** The index a Query action names, if any. */
export const indexOf = (action: ItemAction): IndexName | undefined =>
  action.startsWith('Query:') ? (action.slice('Query:'.length) as IndexName) : undefined;

export interface Family {
  /** `dynamodb:LeadingKeys` patterns (`*` is any run of characters, `#` included). */
  partitions: readonly string[];
  /** Held by a broader family's pattern too: denied to every role not granted it. */
  guarded?: true;
  holds: string;
}

export const families = {
  company: {
    partitions: ['C#*'],
    holds:
      "a company's items: every tenant partition starts with C#<companyId>, and so does every index partition the API reads",
  },
  webhookSubscriptions: {
    partitions: ['C#*#WHSUB#*', 'C#*#WHSUBS'],
    guarded: true,
    holds:
      'webhook subscriptions with their signing secrets, their delivery attempts, and their list (gsi1, all attributes projected)',
  },
  apiKeyLookups: {
    partitions: ['KEY#*'],
    guarded: true,
    holds: "API key lookups: the key's bcrypt hash and verifier, grant, tier and company",
  },
  confirmationCodes: {
    partitions: ['CODE#*'],
    holds: 'a booking by its confirmation code (the public by-code operations start here)',
  },
  waitlistCodes: {
    partitions: ['WAITCODE#*'],
    holds: 'a waitlist entry by its code (the public waitlist operations start here)',
  },
  noShowSweep: {
    partitions: ['SWEEP#*'],
    holds: 'bookings due for the no-show sweep, and waitlist offers due to lapse (SWEEP#WAITLIST#…), by hour',
  },
  rateWindows: { partitions: ['RATE#*'], holds: 'hourly rate windows, per key, user or client IP' },
  idempotency: {
    partitions: ['IDEM#*'],
    holds:
      "the answers to POSTs sent with an Idempotency-Key and no credential (a credential's are in its company's partition)",
  },
  idSequences: { partitions: ['SEQ'], holds: 'numeric id counters (blocks of ten)' },
  permissionCatalog: { partitions: ['PERMISSIONS'], holds: 'the platform-wide permission catalog and its key items' },
  companyList: { partitions: ['COMPANIES'], holds: "the platform's list of companies (gsi1) and its count" },
  healthProbe: { partitions: ['HEALTH'], holds: 'the key /ready and /health read (it never exists)' },
} as const satisfies Record<string, Family>;

export type FamilyName = keyof typeof families;
export type Grants = Partial<Record<FamilyName, readonly ItemAction[]>>;

/** Reads by key and Queries of the table (partitions of the family itself). */
const readTable = ['GetItem', 'BatchGetItem', 'Query'] as const;
/** …and of the indexes, whose partitions (all `C#<cid>…`) list a company's items. */
const read: readonly ItemAction[] = [...readTable, ...indexQueries];
const write = ['PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'] as const;

/** Every HTTP function counts its request in a rate window (one UpdateItem). */
const counted: Grants = { rateWindows: ['UpdateItem'] };
/**
 * A function without the authorizer in front (public operations, probes, the fallback) verifies a
 * credential the caller sends anyway: the key's lookup item, and for a role-based key its role.
 */
const verifiesCredentials: Grants = { apiKeyLookups: ['GetItem'], company: ['GetItem'] };
/** A public POST keeps its answer to an anonymous caller's Idempotency-Key (shared/data/idempotency.ts). */
const anonymousIdempotency = {
  idempotency: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
} as const satisfies Grants;
/** An area's authenticated operations unless it declares otherwise: its company's items, new numeric ids. */
export const tenant: Grants = { company: [...read, ...write], idSequences: ['UpdateItem'] };
/** These actions taken out of a family's grant (an area whose code never sends them). */
const except = (actions: readonly ItemAction[], ...unused: ItemAction[]): ItemAction[] =>
  actions.filter((a) => !unused.includes(a));
/** The tenant profile without item actions the area's code never sends. */
const tenantExcept = (...unused: ItemAction[]): Grants => ({
  ...tenant,
  company: except([...read, ...write], ...unused),
});

interface AreaAccess {
  /** Its operations behind the authorizer; default `tenant`. */
  operations?: Grants;
  /** Its public operations, beyond counting and verifying a presented credential; default nothing. */
  public?: Grants;
  /** Operations requiring one of these permissions get a role of their own. */
  permissions?: Record<string, Grants & { manageUsageKeys?: true }>;
}

/** What each area of the route table touches beyond the defaults (read from its data modules). */
const areaAccess: Record<string, AreaAccess> = {
  health: { public: { healthProbe: ['GetItem'] } },
  // GET /openapi.json: the document is in its bundle; it only counts the request and checks a presented credential.
  docs: {},
  // Coursings, inventory items, variant groups and custom tags (new item, group, variant and tag
  // ids), guests (new guest ids), locations, tables, booking groups (new location ids), capacity
  // settings and waiting times: the tenant profile.
  // Menu reads by key one item at a time (GetItem), never many at once: no BatchGetItem.
  menu: { operations: tenantExcept('BatchGetItem') },
  // A guest's create is puts only (no ConditionCheck); a failed create with an Idempotency-Key deletes its record.
  guests: { operations: tenantExcept('ConditionCheckItem') },
  setup: {},
  capacity: {},
  // Alerts (list, acknowledge, resolve): one GetItem, a Query per page, a transition's put and
  // counters: no BatchGetItem, no ConditionCheck.
  alerts: { operations: tenantExcept('BatchGetItem', 'ConditionCheckItem') },
  // Printing (printer groups, terminals, print jobs): the tenant profile.
  printing: {},
  // Reporting (report emails, export settings, the purchase summary and export, which Query the
  // company partition's purchase day items): the tenant profile.
  // No POST (so no idempotency record to give up) and no delete among its writes: no DeleteItem.
  reporting: { operations: tenantExcept('DeleteItem') },
  // Subscriptions' secrets are written by create and rotate (rotation copies the old one inside DynamoDB).
  // Nothing here reads many items by key: no BatchGetItem.
  webhooks: {
    operations: {
      company: except([...read, ...write], 'BatchGetItem'),
      webhookSubscriptions: except([...read, ...write], 'BatchGetItem'),
    },
  },
  access: {
    // Permissions, roles and reading keys: no BatchGetItem, no ConditionCheck (a role's check when assigned is api_keys.manage's).
    operations: {
      ...tenantExcept('BatchGetItem', 'ConditionCheckItem'),
      permissionCatalog: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
    },
    // Creating, changing and revoking a key write its lookup item and its usage-plan key; nothing
    // here reads a lookup (the authorizer does).
    permissions: {
      // No BatchGetItem: a key's reads are by key, one at a time, or Queries.
      'api_keys.manage': {
        company: except([...read, ...write], 'BatchGetItem'),
        permissionCatalog: ['GetItem', 'Query', 'UpdateItem', 'ConditionCheckItem'],
        apiKeyLookups: ['PutItem', 'UpdateItem'],
        manageUsageKeys: true,
      },
    },
  },
  // Onboarding (internal operators only): list and read companies; create one (its items, its
  // roles' and its own id, the catalog's ids for its roles, the list's count); give it a key (its
  // lookup item and usage-plan key, as api_keys.manage does).
  companies: {
    operations: { company: ['GetItem'], companyList: ['GetItem', 'Query:gsi1'] },
    permissions: {
      // The company's items are only written (puts, the count's update), no Query or BatchGetItem or
      // ConditionCheck; GetItem and DeleteItem stay for its caller's idempotency record (shared/data/idempotency.ts).
      'companies.create': {
        company: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
        companyList: ['UpdateItem'],
        idSequences: ['UpdateItem'],
        permissionCatalog: ['Query'],
      },
      // The company and its admin role by key (GetItem), then one transaction: no Query, no BatchGetItem.
      'companies.manage': {
        company: except([...read, ...write], 'BatchGetItem', 'Query', ...indexQueries),
        apiKeyLookups: ['PutItem'],
        manageUsageKeys: true,
      },
    },
  },
  bookings: {
    operations: {
      company: [...read, ...write],
      confirmationCodes: ['GetItem', 'PutItem'],
      noShowSweep: ['PutItem', 'DeleteItem'],
    },
    // By confirmation code: read the code and the booking, list or add members (a Query of the
    // booking's partition), RSVP, cancel (one transaction: the booking, its code, tabs, table
    // claims and holds, the guest's counters, the event; its sweep item goes). With the location's
    // autoOptimizeEnabled, a cancel re-optimizes the rest of its date as a staff cancel does
    // (shared/domain/bookings/optimize.ts): the location, its settings and tables in one
    // BatchGetItem, the date's bookings, waitlist and the tables' list from gsi1, then the moves.
    public: {
      company: ['GetItem', 'BatchGetItem', 'Query', 'Query:gsi1', ...write],
      confirmationCodes: ['GetItem', 'PutItem'],
      noShowSweep: ['DeleteItem'],
      ...anonymousIdempotency,
    },
  },
  // Tabs, purchases and reviews: a purchase that pays a booking's tab in full, and close-all,
  // write the booking as its other operations do (its code's copy of it; its no-show sweep item
  // does not move: a tab that is open belongs to a seated booking, which has none).
  // No ConditionCheck: closing a booking's tab rewrites a booking read before (versioned put), with no guard step.
  tabs: { operations: { company: except([...read, ...write], 'ConditionCheckItem'), confirmationCodes: ['PutItem'] } },
  // Join and offer write the entry with its code's copy; offer puts the table days back, and an
  // offer that re-seats bookings to free its tables writes them as a move does (each one's code copy). By code:
  // read the code (its copy of the entry), then one BatchGetItem (location, settings, tables,
  // table days); accept writes the booking as a create does (its code, tabs, holds, counters, its
  // no-show sweep item), the entry and its copy in one transaction; decline and leave free the hold.
  waitlist: {
    operations: {
      company: [...read, ...write],
      waitlistCodes: ['PutItem'],
      confirmationCodes: ['PutItem'],
      noShowSweep: ['PutItem', 'DeleteItem'],
    },
    public: {
      company: ['GetItem', 'BatchGetItem', ...write],
      waitlistCodes: ['GetItem', 'PutItem'],
      confirmationCodes: ['PutItem'],
      noShowSweep: ['PutItem', 'DeleteItem'],
      ...anonymousIdempotency,
    },
  },
  // Online booking (docs/online-booking.md): a location's profile and availability (reads), a
  // guest's booking as a create writes one (its code, its no-show sweep item), a waitlist entry
  // with its code's copy; the guest found by a contact item (GetItem). By code: the code's copy,
  // read; a change reads the date's floor and writes the booking as an update does (its code's
  // copy, its table days and those of bookings it re-seats, its no-show sweep item moved).
  online: {
    operations: {
      company: [...read, ...write],
      confirmationCodes: ['PutItem'],
      waitlistCodes: ['PutItem'],
      noShowSweep: ['PutItem'],
      // a guest's first booking makes the guest, with a new id
      idSequences: ['UpdateItem'],
    },
    public: {
      company: [...read, ...write],
      confirmationCodes: ['GetItem', 'PutItem'],
      noShowSweep: ['PutItem', 'DeleteItem'],
    },
  },
};

/** The role of a group of functions: its name and what it may do. */
export interface RoleAccess {
  /** `<area>`, `<area>-public` or `<area>-<permission>`; `fallback`. */
  name: string;
  grants: Grants;
  /** May create and delete API Gateway keys and add them to the tier plans (merchant usage keys). */
  manageUsageKeys: boolean;
}

/** Grants together: each family's actions, once each. */
function mergeGrants(...all: Grants[]): Grants {
  const out: Partial<Record<FamilyName, ItemAction[]>> = {};
  for (const grants of all) {
    for (const [family, actions] of Object.entries(grants) as [FamilyName, readonly ItemAction[]][]) {
      out[family] = itemActions.filter((a) => actions.includes(a) || out[family]?.includes(a));
    }
  }
  return out;
}

/** The role an operation's function runs with, from its row. */
export function accessOf(route: Pick<Route, 'area' | 'permission'>): RoleAccess {
  const declared = areaAccess[route.area] ?? {};
  if (route.permission === null) {
    return {
      name: `${route.area}-public`,
      grants: mergeGrants(counted, verifiesCredentials, declared.public ?? {}),
      manageUsageKeys: false,
    };
  }
  const own = declared.permissions?.[route.permission];
  if (own) {
    const { manageUsageKeys, ...grants } = own;
    return {
      name: `${route.area}-${route.permission}`,
      grants: mergeGrants(counted, grants),
      manageUsageKeys: manageUsageKeys === true,
    };
  }
  return { name: route.area, grants: mergeGrants(counted, declared.operations ?? tenant), manageUsageKeys: false };
}

/** The fallback (404/405 for every unmatched request): it counts the request and verifies a presented credential. */
export const fallbackAccess: RoleAccess = {
  name: 'fallback',
  grants: mergeGrants(counted, verifiesCredentials),
  manageUsageKeys: false,
};

/** Functions outside the route table, each with a role of its own. */
export const functionGrants = {
  /**
   * A key's lookup item, and for a role-based key its role (shared/auth/authenticate.ts); and, once
   * bcrypt verified a key whose item has no verifier, that item's verifier (one conditional
   * UpdateItem: `apiKeys.recordVerifier`).
   */
  authorizer: { apiKeyLookups: ['GetItem', 'UpdateItem'], company: ['GetItem'] },
  /** The sweep partitions of the last hours, each due booking, and its no-show transaction. */
  noShowSweeper: {
    noShowSweep: ['Query', 'DeleteItem'],
    company: ['GetItem', ...write],
    confirmationCodes: ['PutItem'],
    waitlistCodes: ['PutItem'],
  },
  /** The company's active subscriptions (gsi1, with secrets: deliveries are signed later), new delivery records. */
  webhookDispatcher: { webhookSubscriptions: ['Query:gsi1'], company: ['PutItem'] },
  /**
   * The built-in permission catalog, synced at deploy (functions/catalog/seed.ts): the catalog read
   * whole (Query), a built-in whose name or category changed read again by id for its version
   * (GetItem) and put back conditionally (PutItem, as new built-ins are), new built-ins' ids.
   */
  catalogSeeder: { permissionCatalog: ['GetItem', 'Query', 'PutItem'], idSequences: ['UpdateItem'] },
  /** A delivery and its subscription (the secret signs it), the delivery's claim and record, the attempt log, the alert. */
  webhookDeliverer: {
    company: ['GetItem', 'UpdateItem', 'PutItem'],
    webhookSubscriptions: ['GetItem', 'UpdateItem', 'PutItem'],
  },
} as const satisfies Record<string, Grants>;

/** The actions a role is denied on a guarded family: all it is not granted there. */
export function deniedOn(grants: Grants, family: FamilyName): ItemAction[] {
  const granted = grants[family] ?? [];
  return itemActions.filter((a) => !granted.includes(a));
}

export const guardedFamilies = (Object.keys(families) as FamilyName[]).filter((f) => 'guarded' in families[f]);
