/**
 * Operations neither sweep (test/api/sweeps.test.ts) applies to, each with why; the registry check
 * (test/unit/registries.test.ts) reads it too. Public operations (no permission: the probes,
 * the OpenAPI document, the by-code operations, RSVP) need no list: no credential reaches them, so
 * there is no tenant wall or permission to test, and the table says so itself.
 */
export const excluded: Record<string, string> = {
  // The platform's onboarding operations: internal operators only (403 to every company credential,
  // admin keys included, whatever it names), over companies rather than one tenant's data; an
  // operator's sanity pass would create companies. test/api/onboarding.test.ts covers them.
  listCompanies: 'operator-only, platform-wide',
  createCompany: 'operator-only, platform-wide',
  getCompany: 'operator-only, platform-wide',
  createCompanyApiKey: 'operator-only, platform-wide',
  // The permission catalog has no tenant (one for every company) and only internal operators change
  // it: a sanity pass would change what every other test file lists. test/api/access-permissions.test.ts.
  createPermission: 'operator-only, the platform-wide catalog',
  updatePermission: 'operator-only, the platform-wide catalog',
  deletePermission: 'operator-only, the platform-wide catalog',
};
