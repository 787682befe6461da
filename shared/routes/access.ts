export const accessRoutes = [] as const;
