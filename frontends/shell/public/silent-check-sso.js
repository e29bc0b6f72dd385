// The identity provider's answer to keycloak-js's silent session check, handed to the app.
parent.postMessage(location.href, location.origin);
