/**
 * Companies (tenants) and their onboarding (docs/onboarding.md): internal operators create a
 * company, with its system roles in the same transaction, then its first admin key; they list
 * and read companies. Nobody else may: every other credential is refused (403), a company's admin
 * key included.
 */
import { ADMIN_ROLE } from '../auth/catalog';
import type { Principal } from '../auth/principal';
import { companies, type Company } from '../data/companies';
import { nextId } from '../data/ids';
import { roles } from '../data/roles';
import { notFound } from '../errors';
import { newEvent } from '../events/catalog';
import type { Page } from '../page';
import type { CreateCompanyApiKeyBody, CreateCompanyBody, ListCompaniesQuery } from '../schemas/companies';
import { assertInternalOperator } from './access';
import { issueAdminKey, type ApiKeyWithPlaintext } from './apiKeys';
import { isCustomPermission } from './permissions';
import { systemRolesOf } from './roles';

/**
 * Writes a company, its system roles (admin, manager, staff, readonly and the hidden
 * platform-operator role), its place in the list and its `company.created` and `role.created`
 * events, all in one transaction: a company never exists without its roles. 409 if the id is
 * taken. The local seed and the test fixtures name their ids; the API takes the next one.
 */
export async function onboardCompany(input: {
  id: number;
  name: string;
}): Promise<{ company: Company; roleIds: Record<string, number> }> {
  const at = new Date();
  const company: Company = { id: input.id, name: input.name, createdAt: at.toISOString() };
  const { made, ids } = await systemRolesOf(company.id, at);
  await companies.create(
    company,
    ids[ADMIN_ROLE]!,
    roles.createSteps(company.id, made, isCustomPermission),
    newEvent(company.id, 'company.created', String(company.id), { ...company }, null, at),
  );
  return { company, roleIds: ids };
}

export async function createCompany(principal: Principal, input: CreateCompanyBody): Promise<Company> {
  assertInternalOperator(principal, 'create companies');
  return (await onboardCompany({ id: await nextId('company'), name: input.name })).company;
}

export async function listCompanies(principal: Principal, query: ListCompaniesQuery): Promise<Page<Company>> {
  assertInternalOperator(principal, 'list companies');
  return companies.list(query);
}

export async function getCompany(principal: Principal, companyId: number): Promise<Company> {
  assertInternalOperator(principal, 'read companies');
  const found = await companies.get(companyId);
  if (!found) throw notFound('Company');
  return found;
}

/**
 * An admin key of the company (its first, when onboarding): the admin role, every location, at
 * `tier` (default unlimited), counted against the company's cap of live keys. The plaintext is in
 * this answer only. Reads the company (which names its admin role), then one transaction.
 */
export async function createCompanyApiKey(
  principal: Principal,
  companyId: number,
  input: CreateCompanyApiKeyBody,
): Promise<ApiKeyWithPlaintext> {
  assertInternalOperator(principal, 'create API keys for companies');
  const found = await companies.withAdminRole(companyId);
  if (!found) throw notFound('Company');
  return issueAdminKey(companyId, found.adminRoleId, { name: input.name, tier: input.tier ?? 'unlimited' });
}
