import { CreatedApiKeyView } from '../schemas/access';
import * as companies from '../schemas/companies';
import { row } from './route';

/** Onboarding tenants: internal operators only (docs/onboarding.md). */
export const companiesRoutes = [
  row({
    operationId: 'listCompanies',
    method: 'GET',
    path: '/api/v1/companies',
    permission: 'companies.read',
    handler: 'functions/companies/list.ts',
    area: 'companies',
    schemas: { query: companies.ListCompaniesQuery, response: companies.CompanyList },
  }),
  row({
    operationId: 'createCompany',
    method: 'POST',
    path: '/api/v1/companies',
    permission: 'companies.create',
    handler: 'functions/companies/create.ts',
    area: 'companies',
    schemas: { body: companies.CreateCompanyBody, response: companies.Company },
  }),
  row({
    operationId: 'getCompany',
    method: 'GET',
    path: '/api/v1/companies/{companyId}',
    permission: 'companies.read',
    handler: 'functions/companies/get.ts',
    area: 'companies',
    schemas: { path: companies.CompanyIdPath, response: companies.Company },
  }),
  row({
    operationId: 'createCompanyApiKey',
    method: 'POST',
    path: '/api/v1/companies/{companyId}/api-keys',
    permission: 'companies.manage',
    handler: 'functions/companies/create-api-key.ts',
    area: 'companies',
    schemas: {
      path: companies.CompanyIdPath,
      body: companies.CreateCompanyApiKeyBody,
      response: CreatedApiKeyView,
    },
  }),
] as const;
