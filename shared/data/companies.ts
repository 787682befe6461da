import { companyKey, defineEntity } from './entity';
import { putStep, transact } from './transact';

export interface Company {
  id: number;
  name: string;
  createdAt: string;
}

/** A company: the one item of its partition that describes it. */
export const companyEntity = defineEntity({
  name: 'COMPANY',
  label: 'company',
  key: (companyId: number) => companyKey(companyId, 'COMPANY'),
  keyOf: (_companyId, c: Company) => [c.id] as const,
  fields: ['id', 'name', 'createdAt'],
});

export const companies = {
  get: companyEntity.get,
  /** A read of the company, to send with others in one round trip. */
  read: companyEntity.read,

  /** Writes the company as given (the local seed). */
  async put(company: Company): Promise<void> {
    await transact([putStep(companyEntity.item(company.id, company))]);
  },
};
