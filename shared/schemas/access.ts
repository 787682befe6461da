/** Permissions, roles and API keys (docs/access.md). */
import { Type, type Static } from './typebox';
import { Nullable, NumericId, Uuid, pageQuery } from './common';
import { Line, Name, Prose } from './text';

/** Rate-limit tiers of API keys (docs/conventions.md, “Limits”; their hourly limits are in shared/auth/principal.ts). */
export const tiers = ['standard', 'premium', 'unlimited'] as const;
export type Tier = (typeof tiers)[number];

/** `resource.action`, either part snake_case (docs/conventions.md, “Permissions”). */
export const PERMISSION_KEY_PATTERN = '^[a-z]+(_[a-z]+)*\\.[a-z]+(_[a-z]+)*$';

/**
 * Permissions one role or key may name. Every custom permission a role or key names is counted in
 * the same transaction that stores it, and a transaction holds at most 100 items (docs/access.md).
 */
const MAX_GRANT = 90;

const PermissionKey = Type.String({ pattern: PERMISSION_KEY_PATTERN, maxLength: 100, description: 'resource.action' });
const name = Name(100);
const description = Nullable(Prose(1000, { minLength: 0 }));
const category = Nullable(Name(100));

export const ListPermissionsQuery = Type.Object({
  category: Type.Optional(Line({ minLength: 1, maxLength: 100 })),
  search: Type.Optional(Line({ minLength: 1, maxLength: 100 })),
  ...pageQuery(1000, 50),
});

export const CreatePermissionBody = Type.Object(
  { key: PermissionKey, name, description: Type.Optional(description), category: Type.Optional(category) },
  {
    additionalProperties: false,
    examples: [
      {
        key: 'loyalty.read',
        name: 'Read loyalty points',
        description: "See a guest's loyalty balance",
        category: 'loyalty',
      },
    ],
  },
);

/** The key is immutable: roles and keys store it. */
export const UpdatePermissionBody = Type.Object(
  { name: Type.Optional(name), description: Type.Optional(description), category: Type.Optional(category) },
  { additionalProperties: false, minProperties: 1, examples: [{ name: 'Read loyalty balances' }] },
);

export const PermissionIdPath = Type.Object({ id: NumericId });

const permissionIds = Type.Array(NumericId, { maxItems: MAX_GRANT, uniqueItems: true, description: 'permission ids' });

export const ListRolesQuery = Type.Object(pageQuery(1000, 50));

export const CreateRoleBody = Type.Object(
  { name, description: Type.Optional(description), permissionIds },
  {
    additionalProperties: false,
    examples: [{ name: 'Host', description: 'Front of house: bookings and the waitlist', permissionIds: [1, 2, 3] }],
  },
);

export const UpdateRoleBody = Type.Object(
  { name: Type.Optional(name), description: Type.Optional(description), permissionIds: Type.Optional(permissionIds) },
  { additionalProperties: false, minProperties: 1, examples: [{ permissionIds: [1, 2, 3, 4] }] },
);

export const RoleIdPath = Type.Object({ id: NumericId });

/** A key's rate-limit tier (also what the key's lookup item stores, shared/data/apiKeys.ts). */
export const Tier = Type.Unsafe<Tier>({ type: 'string', enum: [...tiers], description: 'rate-limit tier' });
const tier = Tier;
const permissions = Type.Array(PermissionKey, { minItems: 1, maxItems: MAX_GRANT, uniqueItems: true });
/** null: every location of the company. */
const locationIds = Nullable(Type.Array(NumericId, { minItems: 1, maxItems: MAX_GRANT, uniqueItems: true }));

/** A web origin as a browser sends it in `Origin`: `scheme://host[:port]`, lower case, no path (shared/http/cors.ts). */
const Origin = Type.String({
  pattern: '^https?://[a-z0-9.-]+(:[0-9]{1,5})?$',
  maxLength: 253,
  description: 'scheme://host[:port], as a browser sends Origin',
});
/** The web pages a publishable key may be used from. */
const allowedOrigins = Type.Array(Origin, { minItems: 1, maxItems: 20, uniqueItems: true });

/**
 * A secret key: `tier` and exactly one of roleId and permissions (checked by the domain, which names
 * both fields in its answer). A publishable key (`publishable: true`, docs/online-booking.md): its
 * `allowedOrigins` and `locationIds`, no grant (it holds the online-booking operations), the
 * standard tier.
 */
export const CreateApiKeyBody = Type.Object(
  {
    name,
    tier: Type.Optional(tier),
    roleId: Type.Optional(NumericId),
    permissions: Type.Optional(permissions),
    locationIds: Type.Optional(locationIds),
    publishable: Type.Optional(
      Type.Boolean({
        description: 'a key for a web page: the online-booking operations only (docs/online-booking.md)',
      }),
    ),
    allowedOrigins: Type.Optional(allowedOrigins),
  },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'Front desk tablet',
        tier: 'standard',
        permissions: ['bookings.read', 'bookings.create'],
        locationIds: [101],
      },
      { name: 'Booking widget', publishable: true, allowedOrigins: ['https://www.example.com'], locationIds: [101] },
    ],
  },
);

/** At most one of roleId and permissions: either replaces the key's grant. */
export const UpdateApiKeyBody = Type.Object(
  {
    name: Type.Optional(name),
    tier: Type.Optional(tier),
    roleId: Type.Optional(NumericId),
    permissions: Type.Optional(permissions),
    locationIds: Type.Optional(locationIds),
    allowedOrigins: Type.Optional(allowedOrigins),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ name: 'Front desk tablet (bar)', locationIds: null }] },
);

export const ListApiKeysQuery = Type.Object(pageQuery(100, 20));

export const ApiKeyIdPath = Type.Object({ id: Uuid });

const instant = Type.String({ format: 'date-time' });

/** A permission of the catalog: built in (`builtIn`), or added by an operator. */
export const PermissionView = Type.Object(
  {
    id: NumericId,
    key: PermissionKey,
    name: Type.String(),
    description: Nullable(Type.String()),
    category: Nullable(Type.String()),
    builtIn: Type.Boolean(),
    createdAt: instant,
    updatedAt: instant,
  },
  { title: 'Permission', additionalProperties: false },
);

/** A role of the company; system roles (`isSystem`) are seeded with it. */
export const RoleView = Type.Object(
  {
    id: NumericId,
    name: Type.String(),
    description: Nullable(Type.String()),
    permissionIds: Type.Array(NumericId),
    isSystem: Type.Boolean(),
    createdAt: instant,
    updatedAt: instant,
    version: Type.Integer({ minimum: 1 }),
  },
  { title: 'Role', additionalProperties: false },
);

const apiKeyFields = {
  id: Uuid,
  keyId: Type.String({ pattern: '^[a-z0-9]{12}$' }),
  prefix: Type.String({ description: '`brigade_dev_` or `brigade_live_`' }),
  name: Type.String(),
  tier,
  roleId: Nullable(NumericId),
  permissions: Nullable(Type.Array(PermissionKey)),
  locationIds: Nullable(Type.Array(NumericId)),
  publishable: Type.Boolean({ description: 'a key for a web page (docs/online-booking.md)' }),
  allowedOrigins: Nullable(
    Type.Array(Origin, { description: 'the web origins whose pages may use a publishable key' }),
  ),
  createdAt: instant,
  updatedAt: instant,
  revokedAt: Nullable(instant),
  version: Type.Integer({ minimum: 1 }),
};

/** An API key as the API shows it: never its secret (exactly one of roleId and permissions is set). */
export const ApiKeyView = Type.Object(apiKeyFields, { title: 'ApiKey', additionalProperties: false });

/** The answer to creating a key: the key, with its plaintext `key`, shown this once. */
export const CreatedApiKeyView = Type.Object(
  { ...apiKeyFields, key: Type.String({ description: 'the plaintext key: store it now, it is never shown again' }) },
  { title: 'CreatedApiKey', additionalProperties: false },
);

export type ListPermissionsQuery = Static<typeof ListPermissionsQuery>;
export type CreatePermissionBody = Static<typeof CreatePermissionBody>;
export type UpdatePermissionBody = Static<typeof UpdatePermissionBody>;
export type ListRolesQuery = Static<typeof ListRolesQuery>;
export type CreateRoleBody = Static<typeof CreateRoleBody>;
export type UpdateRoleBody = Static<typeof UpdateRoleBody>;
export type CreateApiKeyBody = Static<typeof CreateApiKeyBody>;
export type UpdateApiKeyBody = Static<typeof UpdateApiKeyBody>;
export type ListApiKeysQuery = Static<typeof ListApiKeysQuery>;
