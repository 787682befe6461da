// Node's own import(), for test/bundles/runtime.ts: a file Node loads itself (through require), so
// the test runner's module runner never rewrites this import() into its own.
module.exports = (url) => import(url);
