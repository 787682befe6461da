export const setupRoutes = [] as const;
