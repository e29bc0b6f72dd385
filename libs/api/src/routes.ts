import { aiRoutes } from './ai.js';
import { billingRoutes } from './billing.js';
import { captureRoutes } from './capture.js';
import { exportRoutes } from './export.js';
import { feedbackRoutes } from './feedback.js';
import type { Contract, ServiceName } from './contract.js';
import { imageRoutes } from './images.js';
import { importRoutes } from './imports.js';
import { linkRoutes } from './links.js';
import { liveRoutes } from './live.js';
import { noteRoutes, tagRoutes } from './notes.js';
import { notionRoutes } from './notion.js';
import { reviewRoutes } from './review.js';
import { todoRoutes } from './todos.js';
import { userRoutes } from './users.js';

/** Every route of the public API, by operation id. */
export const routes = {
  ...noteRoutes,
  ...tagRoutes,
  ...linkRoutes,
  ...todoRoutes,
  ...reviewRoutes,
  ...imageRoutes,
  ...captureRoutes,
  ...aiRoutes,
  ...userRoutes,
  ...billingRoutes,
  ...liveRoutes,
  ...exportRoutes,
  ...importRoutes,
  ...notionRoutes,
  ...feedbackRoutes,
};
export type Routes = typeof routes;
export type OperationId = keyof Routes;

/** The routes one service serves. */
export type RoutesOf<S extends ServiceName> = {
  [K in OperationId as Routes[K]['service'] extends S ? K : never]: Routes[K];
};

export const routesOf = <S extends ServiceName>(service: S): RoutesOf<S> =>
  Object.fromEntries(
    Object.entries(routes).filter(([, route]) => route.service === service),
  ) as RoutesOf<S>;

/** Each route as [operationId, contract], for code that folds over all of them. */
export const routeEntries = Object.entries(routes) as [OperationId, Contract][];
