/** Companies (tenants) and their onboarding by internal operators (docs/onboarding.md). */
import { Type, type Static } from './typebox';
import { tiers, type Tier } from './access';
import { NumericId, pageQuery } from './common';
import { Name } from './text';

const name = Name(100);
const timestamp = Type.String({ format: 'date-time' });

export const CreateCompanyBody = Type.Object(
  { name },
  { additionalProperties: false, examples: [{ name: 'Trattoria Roma AB' }] },
);

export const CompanyIdPath = Type.Object({ companyId: NumericId });

export const ListCompaniesQuery = Type.Object(pageQuery(100, 20));

/** The company's first admin key: the admin role, for every location; `tier` default `unlimited`. */
export const CreateCompanyApiKeyBody = Type.Object(
  {
    name,
    tier: Type.Optional(
      Type.Unsafe<Tier>({ type: 'string', enum: [...tiers], description: 'rate-limit tier (default unlimited)' }),
    ),
  },
  { additionalProperties: false, examples: [{ name: 'Admin key', tier: 'unlimited' }] },
);

/** A company as the API shows it. */
export const Company = Type.Object({ id: NumericId, name, createdAt: timestamp }, { additionalProperties: false });

export const CompanyList = Type.Array(Company);

export type CreateCompanyBody = Static<typeof CreateCompanyBody>;
export type ListCompaniesQuery = Static<typeof ListCompaniesQuery>;
export type CreateCompanyApiKeyBody = Static<typeof CreateCompanyApiKeyBody>;
