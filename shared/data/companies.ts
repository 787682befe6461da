/**
 * Companies (tenants), docs/onboarding.md:
 *
 *   C#<cid> / COMPANY        the company (+ its admin role's id); gsi1 `COMPANIES` / `<cid:12>`: the platform's list, by id
 *   COMPANIES / COUNT#COMPANY  how many companies the list holds (`n`)
 *
 * A company is written with its system roles in one transaction, so none exists without them.
 */
import { Type, type Static } from '../schemas/typebox';
import type { DomainEvent } from '../events/catalog';
import type { Page } from '../page';
import { Company as CompanyView } from '../schemas/companies';
import { companyKey, defineEntity, extendView } from './entity';
import { keys } from './keys';
import { outboxStep } from './outbox';
import { counterStep, listPage, type PageRequest } from './paging';
import { transactShared, type Step } from './transact';

/** A company as shown: declared by its view (shared/schemas/companies.ts). */
export type Company = Static<typeof CompanyView>;

/** The platform's list of companies: one index partition, and its count beside it. */
const LIST = 'COMPANIES';
const counter = { pk: LIST, sk: 'COUNT#COMPANY' };

/** A company as stored: the API's fields, and the id of its admin system role (for its first key). */
const CompanyItem = extendView(CompanyView, { adminRoleId: Type.Integer() });
type CompanyItem = Static<typeof CompanyItem>;

/** A company: the one item of its partition that describes it, listed platform-wide by id. */
const companyEntity = defineEntity({
  name: 'COMPANY',
  label: 'company',
  key: (companyId: number) => companyKey(companyId, 'COMPANY'),
  schema: CompanyItem,
  keyOf: (_companyId, c) => [c.id] as const,
  indexes: (_companyId, c) => ({ gsi1pk: LIST, gsi1sk: keys.pad(c.id) }),
});

const shown = ({ adminRoleId: _, ...company }: CompanyItem): Company => company;

export const companies = {
  async get(companyId: number): Promise<Company | undefined> {
    const found = await companyEntity.get(companyId);
    return found && shown(found);
  },

  /** A read of the company (with its admin role's id), to send with others in one round trip. */
  read: companyEntity.read,

  /** The company and the id of its admin system role: 1 GetItem. */
  async withAdminRole(companyId: number): Promise<{ company: Company; adminRoleId: number } | undefined> {
    const found = await companyEntity.get(companyId);
    return found && { company: shown(found), adminRoleId: found.adminRoleId };
  },

  /** The companies by id, paged (the total from the counter). */
  list: (page: PageRequest): Promise<Page<Company>> =>
    listPage({ index: 'gsi1', partition: LIST, counter }, page, (i) => shown(companyEntity.from(i))),

  /**
   * Adds the company (409 if its id is taken), counts it in the list and writes `steps` (its
   * system roles, the admin role among them) and its event, all in one transaction; tried again
   * when a concurrent creation held the list's count (every creation touches it).
   */
  async create(company: Company, adminRoleId: number, steps: readonly Step[], event: DomainEvent): Promise<void> {
    await transactShared([
      companyEntity.newItemStep(company.id, { ...company, adminRoleId }),
      counterStep(counter, 1),
      ...steps,
      outboxStep(event),
    ]);
  },
};
