// The registries `tonne import --from` reads, apart from their readers, so the CLI's usage can name them
// without loading every reader.

export const REGISTRY_KEYS = ['verra', 'gold-standard', 'acr', 'car', 'art', 'cercarbono', 'isometric', 'arb'] as const

export type RegistryKey = typeof REGISTRY_KEYS[number]
