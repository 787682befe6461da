import { OpenApiDocument } from '../schemas/docs';
import { row } from './route';

/** The API's description of itself (docs/openapi.md) and the reference page that renders it (docs/docs-page.md). */
export const docsRoutes = [
  row({
    operationId: 'getOpenApiDocument',
    method: 'GET',
    path: '/openapi.json',
    permission: null,
    handler: 'functions/openapi/get.ts',
    area: 'docs',
    schemas: { response: OpenApiDocument },
    bare: true,
    summary: 'This description (OpenAPI 3.1)',
    description: 'Generated from the route table (docs/openapi.md); the same document `npm run openapi` writes.',
  }),
  row({
    operationId: 'getDocsPage',
    method: 'GET',
    path: '/docs',
    permission: null,
    handler: 'functions/openapi/page.ts',
    area: 'docs',
    schemas: {},
    asset: { mediaType: 'text/html' },
    summary: 'The API reference page',
    description:
      'An HTML page that renders this description with Scalar (its script from `GET /docs/scalar.js`, the document from `GET /openapi.json`, nothing from elsewhere), with "try it" against this stage (docs/docs-page.md).',
  }),
  row({
    operationId: 'getDocsScript',
    method: 'GET',
    path: '/docs/scalar.js',
    permission: null,
    handler: 'functions/openapi/scalar.ts',
    area: 'docs',
    schemas: {},
    asset: { mediaType: 'text/javascript' },
    summary: "The reference page's script",
    description:
      "Scalar's API reference (`@scalar/api-reference`, its standalone browser bundle), served by the API itself: the page loads nothing from a CDN.",
  }),
  row({
    operationId: 'getBookingWidget',
    method: 'GET',
    path: '/widget/v1.js',
    permission: null,
    handler: 'functions/widget/script.ts',
    area: 'docs',
    schemas: {},
    asset: { mediaType: 'text/javascript' },
    summary: 'The embeddable booking widget',
    description:
      "One script a restaurant's page loads, with a `brigade-booking` element naming the location and a publishable key: a guest books, changes, cancels or joins the waitlist through the online-booking operations (docs/widget.md). The path carries the major version; `X-Widget-Version` the full one.",
  }),
] as const;
