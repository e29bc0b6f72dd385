// @ts-check
import { frontendConfig } from '../rspack.base.js';

export default frontendConfig({
  name: 'billing',
  packageUrl: import.meta.url,
  // The container entry that ModuleFederationPlugin adds is the only entry of this remote.
  entry: {},
  // Resolved from remoteEntry.js at runtime, so the remote works under /remotes/billing/.
  publicPath: 'auto',
  federation: {
    filename: 'remoteEntry.js',
    exposes: {
      './BillingDialog': './src/BillingDialog.tsx',
      './PlanPanel': './src/PlanPanel.tsx',
      './PricingTable': './src/PricingTable.tsx',
      './SubscriptionPage': './src/SubscriptionPage.tsx',
    },
  },
});
