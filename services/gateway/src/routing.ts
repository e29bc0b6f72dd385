import { Router, type RequestHandler } from 'express';
import { routeEntries, type ServiceName } from '@noted/api';
import { methodNotAllowed, pathsOf } from '@noted/kit';

const contracts = routeEntries.map(([, route]) => route);

/**
 * The gateway's routing table, read from the route contracts: each route goes to the service
 * its contract names, and any other method on one of those paths answers 405 here, with
 * `Allow`. A path no contract has falls through (to the web app, or 404).
 */
export const routingTable = (services: Record<ServiceName, RequestHandler>): Router => {
  const router = Router();
  for (const [path, routes] of pathsOf(contracts)) {
    for (const route of routes) router[route.method](path, services[route.service]);
    router.all(path, methodNotAllowed(routes.map((route) => route.method)));
  }
  return router;
};

/** Where the routes that need a token live (`/api`, `/ai`, `/user`, …): the gateway signs in there. */
export const signedInPrefixes = [
  ...new Set(
    contracts.filter((route) => !route.public).map((route) => `/${route.path.split('/')[1]}`),
  ),
];

const matchers = (routes: typeof contracts) =>
  routes.map((route) => ({
    method: route.method.toUpperCase(),
    pattern: new RegExp(`^${route.path.replace(/:\w+/g, '[^/]+')}/?$`),
  }));

/** The routes that need no account but live under a signed-in prefix, as matchers. */
const openRoutes = matchers(
  contracts.filter(
    (route) => route.public && signedInPrefixes.includes(`/${route.path.split('/')[1]}`),
  ),
);

/** The routes served signed in or not (`auth: 'optional'`), as matchers. */
const optionalRoutes = matchers(contracts.filter((route) => route.auth === 'optional'));

/** Whether a request (its whole path) is one of those routes. */
export const isOpenRoute = (method: string, path: string) =>
  openRoutes.some((route) => route.method === method && route.pattern.test(path));

/** Whether a request (its whole path) is served signed in or not. */
export const isOptionalSignInRoute = (method: string, path: string) =>
  optionalRoutes.some((route) => route.method === method && route.pattern.test(path));
