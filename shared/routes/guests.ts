export const guestsRoutes = [] as const;
