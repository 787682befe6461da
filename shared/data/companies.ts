/**
 * Companies (tenants), docs/onboarding.md:
 *
 *   C#<cid> / COMPANY        the company; gsi1 `COMPANIES` / `<cid:12>`: the platform's list, by id
 *   COMPANIES / COUNT        how many companies the list holds (`n`)
 *
 * A company is written with its system roles in one transaction, so none exists without them.
 */
import type { DomainEvent } from '../events/catalog';
import type { Page } from '../page';
import { companyKey, defineEntity } from './entity';
import { keys } from './keys';
import { outboxStep } from './outbox';
import { counterStep, listPage, type PageRequest } from './paging';
import { transactShared, type Step } from './transact';

export interface Company {
  id: number;
  name: string;
  createdAt: string;
}

/** The platform's list of companies: one index partition, and its count beside it. */
const LIST = 'COMPANIES';
const counter = { pk: LIST, sk: 'COUNT' };

/** A company: the one item of its partition that describes it, listed platform-wide by id. */
export const companyEntity = defineEntity({
  name: 'COMPANY',
  label: 'company',
  key: (companyId: number) => companyKey(companyId, 'COMPANY'),
  keyOf: (_companyId, c: Company) => [c.id] as const,
  fields: ['id', 'name', 'createdAt'],
  indexes: (_companyId, c) => ({ gsi1pk: LIST, gsi1sk: keys.pad(c.id) }),
});

export const companies = {
  get: companyEntity.get,

  /** The companies by id, paged (the total from the counter). */
  list: (page: PageRequest): Promise<Page<Company>> => listPage({ index: 'gsi1', partition: LIST, counter }, page, companyEntity.from),

  /**
   * Adds the company (409 if its id is taken), counts it in the list and writes `steps` (its
   * system roles) and its event, all in one transaction; tried again when a concurrent creation
   * held the list's count (every creation touches it).
   */
  async create(company: Company, steps: readonly Step[], event: DomainEvent): Promise<void> {
    await transactShared([
      companyEntity.newItemStep(company.id, company),
      counterStep(counter, 1),
      ...steps,
      outboxStep(event),
    ]);
  },
};
