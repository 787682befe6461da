export const webhooksRoutes = [] as const;
