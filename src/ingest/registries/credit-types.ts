import { readFileSync } from 'node:fs'
import path from 'node:path'
import { named } from './values.ts'

// Credit types: one vocabulary for every registry, the sectoral scopes that Verra's exports name (the original
// API's AGRICULTURE_FORESTRY_AND_OTHER_LAND_USE is one), plus the carbon-removal pathways the scopes lack.
// A registry's own project type is read by keyword; where that says nothing, CarbonPlan's category for the
// type or methodology (data/catalogue/reference, MIT, CarbonPlan) decides when it maps to one type.

export const CREDIT_TYPES = {
  afolu: named('Agriculture Forestry and Other Land Use'),
  energyIndustries: named('Energy industries (renewable/non-renewable sources)'),
  energyDemand: named('Energy demand'),
  transport: named('Transport'),
  chemical: named('Chemical industry'),
  fugitiveFuels: named('Fugitive emissions from fuels (solid, oil and gas)'),
  fugitiveGases: named('Fugitive emissions from industrial gases (halocarbons and sulphur hexafluoride)'),
  waste: named('Waste handling and disposal'),
  livestock: named('Livestock, enteric fermentation, and manure management'),
  biochar: named('Biochar'),
  rockWeathering: named('Enhanced rock weathering'),
  directAirCapture: named('Direct air capture'),
  alkalinity: named('Ocean alkalinity enhancement'),
  biomassStorage: named('Biomass carbon removal and storage')
} as const
type CreditType = typeof CREDIT_TYPES[keyof typeof CREDIT_TYPES]

/** Keywords of registries' project types, most specific first ("Livestock Waste Management" is livestock). */
const KEYWORDS: ReadonlyArray<[RegExp, CreditType]> = [
  [/livestock|manure|dairy|enteric/, CREDIT_TYPES.livestock],
  [/ozone|\bods\b|refrigerant|\bhfc|halocarbon|\bsf6\b/, CREDIT_TYPES.fugitiveGases],
  [/mine methane|coal mine|oil and gas|orphan(ed)? well|abandoned well/, CREDIT_TYPES.fugitiveFuels],
  [/nitric acid|adipic acid|industrial process|chemical/, CREDIT_TYPES.chemical],
  [/biochar/, CREDIT_TYPES.biochar],
  [/forest|^a\/r$|grassland|soil|rice|agricultur|wetland|mangrove|redd|land use|afolu|peat/, CREDIT_TYPES.afolu],
  [/landfill|organic waste|compost|wastewater|\bwaste\b/, CREDIT_TYPES.waste],
  [/transport|vehicle|bicycle|\brail/, CREDIT_TYPES.transport],
  [/energy efficiency|energy demand|cookstove|\bstoves?\b|water filter|lighting/, CREDIT_TYPES.energyDemand],
  [/energy industr|\bwind\b|solar|\bpv\b|photovoltaic|hydro|geothermal|biogas|biomass|renewable/,
    CREDIT_TYPES.energyIndustries]
]

/** A sectoral scope as a registry writes it → the credit type, with this vocabulary's wording when it has one. */
export function creditTypeNamed (text: string): CreditType | { name_id: string, verbose_name: string } {
  const entry = named(text)
  return Object.values(CREDIT_TYPES).find((t) => t.name_id === entry.name_id) ?? entry
}

/** A registry's project type or sector → a credit type by its keywords; undefined when none applies. */
function creditTypeByKeyword (text: string): CreditType | undefined {
  const lower = text.toLowerCase().trim()
  if (lower === '') return undefined
  return KEYWORDS.find(([pattern]) => pattern.test(lower))?.[1]
}

/** CarbonPlan categories that name one credit type; the others (ghg-management, fuel-switching, …) span several. */
const BY_CATEGORY: Readonly<Record<string, CreditType>> = {
  forest: CREDIT_TYPES.afolu,
  'land-use': CREDIT_TYPES.afolu,
  agriculture: CREDIT_TYPES.afolu,
  'renewable-energy': CREDIT_TYPES.energyIndustries,
  'energy-efficiency': CREDIT_TYPES.energyDemand,
  'biomass-cdr': CREDIT_TYPES.biomassStorage,
  'air-capture': CREDIT_TYPES.directAirCapture
}

const REFERENCE_DIR = path.join(import.meta.dirname, '..', '..', '..', 'data', 'catalogue', 'reference')

interface ProtocolEntry { category?: string, 'known-strings'?: string[] }

/** CarbonPlan's mappings (data/catalogue/reference): methodology strings → protocol ids, project types → categories. */
export class ProtocolMappings {
  readonly #protocolsByString = new Map<string, string[]>()
  readonly #categoryByProtocol = new Map<string, string>()
  readonly #categoryByType = new Map<string, string>()
  readonly #typeNames = new Map<string, string>()

  constructor (dir = REFERENCE_DIR) {
    const read = <T> (file: string) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Record<string, T>
    const protocols = read<ProtocolEntry>('all-protocol-mapping.json')
    for (const [id, entry] of Object.entries(protocols)) {
      if (entry.category !== undefined) this.#categoryByProtocol.set(id, entry.category)
      for (const known of entry['known-strings'] ?? []) {
        const key = known.trim()
        this.#protocolsByString.set(key, [...this.#protocolsByString.get(key) ?? [], id])
      }
    }
    const types = read<{ category?: string, 'project-type-display-name'?: string }>('type-category-mapping.json')
    for (const [type, entry] of Object.entries(types)) {
      if (entry.category !== undefined) this.#categoryByType.set(type, entry.category)
      const display = entry['project-type-display-name']
      if (display !== undefined) this.#typeNames.set(type, display)
    }
  }

  /** The protocol ids a raw methodology string is known as (exact match, as CarbonPlan does). */
  protocols (methodology: string): string[] {
    return (this.#protocolsByString.get(methodology.trim()) ?? []).filter((id) => id !== 'unknown')
  }

  /** CarbonPlan's category of a methodology string: its first protocol with a known category. */
  categoryOfMethodology (methodology: string): string | undefined {
    return this.protocols(methodology).map((id) => this.#categoryByProtocol.get(id))
      .find((c) => c !== undefined && c !== 'unknown')
  }

  /** CarbonPlan's category of one of its protocol ids ("art-trees" → forest). */
  categoryOfProtocol (id: string): string | undefined {
    const category = this.#categoryByProtocol.get(id)
    return category === 'unknown' ? undefined : category
  }

  categoryOfType (type: string): string | undefined {
    const category = this.#categoryByType.get(type.trim().toLowerCase())
    return category === 'unknown' ? undefined : category
  }

  /** CarbonPlan's display name of a registry's project type ("afforestation/reforestation" → its name), or null. */
  projectTypeName (type: string): string | null {
    return this.#typeNames.get(type.trim().toLowerCase()) ?? null
  }

  /** CarbonPlan's category: by the methodology's protocol, else by the project type (as OffsetsDB's add_category). */
  category (methodology: string, type: string): string | null {
    return this.categoryOfMethodology(methodology) ?? this.categoryOfType(type) ?? null
  }

  /**
   * A credit type from a registry's project type, else from CarbonPlan's category for that type or for the
   * methodology; null when none of them says.
   */
  creditType (type: string, methodology = ''): CreditType | null {
    const byKeyword = creditTypeByKeyword(type)
    if (byKeyword !== undefined) return byKeyword
    for (const category of [this.categoryOfType(type), this.categoryOfMethodology(methodology)]) {
      if (category !== undefined && BY_CATEGORY[category] !== undefined) return BY_CATEGORY[category]
    }
    return null
  }

  /** Which compliance programme a methodology's protocol belongs to (CarbonPlan ids arb-…, ecy-…). */
  compliance (methodology: string): 'california' | 'washington' | undefined {
    const ids = this.protocols(methodology)
    if (ids.some((id) => id.startsWith('arb-'))) return 'california'
    if (ids.some((id) => id.startsWith('ecy-'))) return 'washington'
    return undefined
  }
}
