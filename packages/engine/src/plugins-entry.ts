/**
 * @z-engine/engine/plugins: Claude Code plugins and marketplaces: install, list, enable, remove (`z-engine plugin`), and the definition sources of the enabled ones. For the repository's own apps (the CLI, the gateway); unstable: names
 * and shapes may change between minor versions. An embedder uses `@z-engine/engine`.
 */

/** The definition sources of the enabled plugins. */
export { pluginDefinitionSources } from './workspace/plugins/active.js'
/** Installed plugins as `plugin list` shows them, and what one adds. */
export type { PluginListing, PluginSummary } from './workspace/plugins/install.js'
/** Installs (staged, then committed with consent), lists, enables and removes plugins. */
export {
  listInstalledPlugins,
  setPluginEnabled,
  stagePluginInstall,
  uninstallPlugin,
} from './workspace/plugins/install.js'
/** Marketplaces as `plugin marketplace list` shows them, a pinned ref, the plugin folders, and what a plugin operation returns. */
export type {
  MarketplaceListing,
  MarketplacePin,
  PluginPaths,
  PluginResult,
} from './workspace/plugins/marketplaces.js'
/** Adds, lists, removes and updates plugin marketplaces. */
export {
  addMarketplace,
  listMarketplaces,
  removeMarketplace,
  updateMarketplaces,
} from './workspace/plugins/marketplaces.js'
/** What a plugin adds, one line each (shown before installing). */
export { pluginSummaryLines } from './workspace/plugins/summary-lines.js'
