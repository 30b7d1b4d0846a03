import type { Named } from './project-draft.ts'

// Each registry's name in the catalogue and the standard its projects get by default: one place for the readers,
// CARB's targets and OffsetsDB's archive, so that a project imported from two of them is one project.

export const VERRA: Named = { name_id: 'VERRA', verbose_name: 'Verra' }
export const VERRA_STANDARD: Named = {
  name_id: 'VERRA_VERIFIED_CARBON_STANDARD', verbose_name: 'Verified Carbon Standard'
}
export const GOLD_STANDARD: Named = { name_id: 'GOLD_STANDARD', verbose_name: 'Gold Standard' }
export const GOLD_STANDARD_STANDARD: Named = {
  name_id: 'GOLD_STANDARD_GOLD_STANDARD_FOR_THE_GLOBAL_GOALS', verbose_name: 'Gold Standard for the Global Goals'
}
export const ACR: Named = { name_id: 'AMERICAN_CARBON_REGISTRY', verbose_name: 'American Carbon Registry' }
export const ACR_STANDARD: Named = { name_id: 'AMERICAN_CARBON_REGISTRY_ACR_STANDARD', verbose_name: 'ACR Standard' }
export const CAR: Named = { name_id: 'CLIMATE_ACTION_RESERVE', verbose_name: 'Climate Action Reserve' }
export const CAR_STANDARD: Named = {
  name_id: 'CLIMATE_ACTION_RESERVE_CLIMATE_ACTION_RESERVE_OFFSET_PROTOCOLS',
  verbose_name: 'Climate Action Reserve Offset Protocols'
}
export const ART: Named = { name_id: 'ART', verbose_name: 'Architecture for REDD+ Transactions (ART)' }
export const ISOMETRIC: Named = { name_id: 'ISOMETRIC', verbose_name: 'Isometric' }
export const ISOMETRIC_STANDARD: Named = { name_id: 'ISOMETRIC_ISOMETRIC_STANDARD', verbose_name: 'Isometric Standard' }
export const CERCARBONO: Named = { name_id: 'CERCARBONO', verbose_name: 'Cercarbono' }
export const CERCARBONO_STANDARD: Named = {
  name_id: 'CERCARBONO_CERCARBONO_PROTOCOL', verbose_name: 'Cercarbono Protocol'
}
