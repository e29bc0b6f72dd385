export {
  createTokenVerifier,
  type TokenVerifier,
  type TokenVerifierOptions,
  type VerifiedUser,
} from './verifier.js';
export { authenticate } from './authenticate.js';
