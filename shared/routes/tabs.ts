import { TabPath } from '../schemas/bookings';
import * as p from '../schemas/purchases';
import { row } from './route';

const area = 'tabs';

/**
 * Tabs, purchases and reviews (docs/purchases.md). The contract names the anonymous-members path
 * parameter `{id}`; it is `{tabId}` here as on every other path under /tabs (API Gateway needs
 * one name per path level). The URL is the same.
 */
export const tabsRoutes = [
  row({
    operationId: 'listTabPurchases',
    method: 'GET',
    path: '/api/v1/tabs/{tabId}/purchases',
    permission: 'purchases.read',
    handler: 'functions/purchases/list.ts',
    area,
    schemas: { path: TabPath, query: p.ListPurchasesQuery, response: p.PurchaseListView },
  }),
  row({
    operationId: 'createTabPurchase',
    method: 'POST',
    path: '/api/v1/tabs/{tabId}/purchases',
    permission: 'purchases.manage',
    handler: 'functions/purchases/create.ts',
    area,
    schemas: { path: TabPath, body: p.CreatePurchaseBody, response: p.RecordedPurchaseView },
  }),
  row({
    operationId: 'markPurchasePickedUp',
    method: 'POST',
    path: '/api/v1/purchases/{purchaseIntentId}/picked-up',
    permission: 'purchases.update',
    handler: 'functions/purchases/picked-up.ts',
    area,
    schemas: { path: p.PurchasePath, response: p.PurchaseView },
  }),
  row({
    operationId: 'listRefundReasons',
    method: 'GET',
    path: '/api/v1/purchases/refund-reasons',
    permission: 'purchases.read',
    handler: 'functions/purchases/refund-reasons.ts',
    area,
    schemas: { query: p.RefundReasonsQuery, response: p.RefundReasonsView },
  }),

  row({
    operationId: 'getTab',
    summary: 'Read a tab: its booking and tables, its bill per VAT rate, its orders and purchases',
    method: 'GET',
    path: '/api/v1/tabs/{tabId}',
    permission: 'tabs.read',
    handler: 'functions/tabs/get.ts',
    area,
    schemas: { path: TabPath, response: p.TabDetailsView },
  }),
  row({
    operationId: 'addTabAnonymousMember',
    method: 'POST',
    path: '/api/v1/tabs/{tabId}/anonymous-members',
    permission: 'tabs.update',
    handler: 'functions/tabs/anonymous-members.ts',
    area,
    schemas: { path: TabPath, response: p.TabView },
  }),
  row({
    operationId: 'getRecentPurchaseIntent',
    method: 'GET',
    path: '/api/v1/tabs/{tabId}/recent-purchase-intent',
    permission: 'tabs.read',
    handler: 'functions/tabs/recent-purchase-intent.ts',
    area,
    schemas: { path: TabPath, response: p.RecentPurchaseView },
  }),
  row({
    operationId: 'closeAllTabs',
    method: 'POST',
    path: '/api/v1/tabs/close-all',
    permission: 'tabs.manage',
    handler: 'functions/tabs/close-all.ts',
    area,
    schemas: { response: p.CloseAllTabsView },
  }),

  row({
    operationId: 'createReview',
    method: 'POST',
    path: '/api/v1/reviews',
    permission: 'reviews.create',
    handler: 'functions/reviews/create.ts',
    area,
    schemas: { body: p.CreateReviewBody, response: p.ReviewView },
  }),
  row({
    operationId: 'getReview',
    method: 'GET',
    path: '/api/v1/reviews/{purchaseIntentId}',
    permission: 'reviews.read',
    handler: 'functions/reviews/get.ts',
    area,
    schemas: { path: p.PurchasePath, response: p.ReviewOrNoneView },
  }),
] as const;
