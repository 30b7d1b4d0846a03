import assert from 'node:assert/strict'
import path from 'node:path'
import { describe, test } from 'node:test'
import { forEachDatabase } from '../databases.ts'
import { importExports, projects, RAW, type Detail } from '../support/registries.ts'
import { workspace } from '../support/workspace.ts'

// The registries' real sample exports (data/catalogue/raw, see its SOURCE.md) imported by the real CLI and read
// back over the API. Expected values are written out by hand from the export rows (line numbers in the comments),
// following the mapping in docs/registries.md.

type Amounts = { issued: number | null, retired: number | null }
/** Issued and retired (cancelled: the agreement and ledger tests). */
function issuedAndRetired (credits: unknown) {
  const c = credits as Amounts & { vintages: Array<Amounts & { vintage: number }> }
  return {
    issued: c.issued,
    retired: c.retired,
    vintages: c.vintages.map((v) => ({ vintage: v.vintage, issued: v.issued, retired: v.retired }))
  }
}

/** The harmonised fields, compactly: vocabulary values by name_id, SDGs by number, certifications by label. */
function summary (p: Detail) {
  return {
    name: p.name,
    symbol: p.symbol,
    registry: p.registry.name_id,
    standard: p.standard.name_id,
    credit_type: p.credit_type?.name_id ?? null,
    url: p.url,
    location: p.location,
    latitude: p.latitude,
    longitude: p.longitude,
    date: p.date,
    area: p.area,
    estimated_annual_reductions: p.estimated_annual_reductions,
    project_developer: p.project_developer,
    vintages: p.vintages,
    credits: issuedAndRetired(p.credits),
    sdgs: p.sustainable_development_goals.map((g) => Number(g.name_id.split('_')[0])),
    certifications: p.certifications.map((c) => c.verbose_name),
    source: p.source
  }
}

type Expected = ReturnType<typeof summary>
const none = { issued: null, retired: null, vintages: [] }
/** Vintages with issued credits and no retirement data: [year, issued] pairs. */
const unretired = (...vintages: Array<[number, number]>) =>
  vintages.map(([vintage, issued]) => ({ vintage, issued, retired: null }))
const located = { latitude: null, longitude: null, area: null }

interface Case {
  registry: string
  files: string[]
  count: number
  expected: Record<string, Expected>
}

const CASES: Case[] = [{
  registry: 'verra',
  files: ['verra/projects.csv', 'verra/transactions.csv'],
  count: 106,
  expected: {
    // projects.csv line 2; no transactions in the sample.
    VCS5962: {
      name: 'Recovery and Avoidance of methane from Industrial wastewater treatment project at Agro Muara Rupit ' +
        'mill, Indonesia.',
      symbol: 'VCS-5962',
      registry: 'VERRA',
      standard: 'VERRA_VERIFIED_CARBON_STANDARD',
      credit_type: 'WASTE_HANDLING_AND_DISPOSAL',
      url: 'https://registry.verra.org/app/projectDetail/VCS/5962',
      location: 'Indonesia',
      ...located,
      date: null,
      estimated_annual_reductions: 56373,
      project_developer: 'KNOWLEDGE INTEGRATION SERVICES SINGAPORE PTE. LTD.',
      vintages: [],
      credits: none,
      sdgs: [],
      certifications: [],
      source: [{ file: 'projects.csv', lines: [2] }]
    },
    // transactions.csv line 2: a retired block of 425 of the 2020 vintage's 1,454,054.
    VCS1340: {
      name: 'Bale Mountains Eco-region REDD+ project',
      symbol: 'VCS-1340',
      registry: 'VERRA',
      standard: 'VERRA_VERIFIED_CARBON_STANDARD',
      credit_type: 'AGRICULTURE_FORESTRY_AND_OTHER_LAND_USE',
      url: 'https://registry.verra.org/app/projectDetail/VCS/1340',
      location: 'Ethiopia',
      ...located,
      date: null,
      estimated_annual_reductions: null,
      project_developer: '',
      vintages: [2020],
      credits: { issued: 1454054, retired: 425, vintages: [{ vintage: 2020, issued: 1454054, retired: 425 }] },
      sdgs: [],
      certifications: ['CCB-No Distinction'],
      source: [{ file: 'transactions.csv', lines: [2] }]
    },
    // transactions.csv lines 126, 198-200: three vintage periods, 2024 twice (1,092,083 + 272,731), none retired.
    VCS2925: {
      name: 'Grouped Projects for Cambodia Improved Cookstove',
      symbol: 'VCS-2925',
      registry: 'VERRA',
      standard: 'VERRA_VERIFIED_CARBON_STANDARD',
      credit_type: 'ENERGY_DEMAND',
      url: 'https://registry.verra.org/app/projectDetail/VCS/2925',
      location: 'Cambodia',
      ...located,
      date: null,
      estimated_annual_reductions: null,
      project_developer: '',
      vintages: [2023, 2024],
      credits: {
        issued: 2508352,
        retired: 0,
        vintages: [{ vintage: 2023, issued: 1143538, retired: 0 }, { vintage: 2024, issued: 1364814, retired: 0 }]
      },
      sdgs: [3, 4, 5, 7, 8, 13, 15],
      certifications: ['Article 6 Authorized – Intl mitigation purposes', 'Article 6 Authorized – Other purposes',
        'CORSIA - First Phase, 2024-2026 Scope'],
      source: [{ file: 'transactions.csv', lines: [126, 198, 199, 200] }]
    }
  }
}, {
  registry: 'gold-standard',
  files: ['gold-standard/projects.csv', 'gold-standard/issuances.csv'],
  count: 104,
  expected: {
    // projects.csv line 2: SDGs "4,13,6,5,3,8" in no order.
    GS23574: {
      name: 'GS12856-VPA-3 Unlocking Communities Water Filters for Households',
      symbol: 'GS-23574',
      registry: 'GOLD_STANDARD',
      standard: 'GOLD_STANDARD_GOLD_STANDARD_FOR_THE_GLOBAL_GOALS',
      credit_type: 'ENERGY_DEMAND',
      url: 'https://registry.goldstandard.org/projects?q=gs23574',
      location: 'Haiti',
      ...located,
      date: null,
      estimated_annual_reductions: 60000,
      project_developer: 'Unlocking Communities',
      vintages: [],
      credits: none,
      sdgs: [3, 4, 5, 6, 8, 13],
      certifications: [],
      source: [{ file: 'projects.csv', lines: [2] }]
    },
    // issuances.csv lines 37-38: 2024 68,419 and 2025 28,040, labelled "ICVCM CCP, Emission Reduction".
    GS10792: {
      name: 'GS10789 VPA3: Efficient and Clean Cooking for households in Kenya',
      symbol: 'GS-10792',
      registry: 'GOLD_STANDARD',
      standard: 'GOLD_STANDARD_GOLD_STANDARD_FOR_THE_GLOBAL_GOALS',
      credit_type: 'ENERGY_DEMAND',
      url: 'https://registry.goldstandard.org/projects?q=gs10792',
      location: 'Kenya',
      ...located,
      date: null,
      estimated_annual_reductions: null,
      project_developer: 'ECC- Talanton Trust',
      vintages: [2024, 2025],
      credits: { issued: 96459, retired: null, vintages: unretired([2024, 68419], [2025, 28040]) },
      sdgs: [],
      certifications: ['ICVCM CCP'],
      source: [{ file: 'issuances.csv', lines: [37, 38] }]
    },
    // projects.csv, the record starting on line 239: country "Tanzania United Republic of".
    GS23462: {
      name: 'CCT Clean Cooking Project Tanzania',
      symbol: 'GS-23462',
      registry: 'GOLD_STANDARD',
      standard: 'GOLD_STANDARD_GOLD_STANDARD_FOR_THE_GLOBAL_GOALS',
      credit_type: 'ENERGY_DEMAND',
      url: 'https://registry.goldstandard.org/projects?q=gs23462',
      location: 'Tanzania',
      ...located,
      date: null,
      estimated_annual_reductions: 134378,
      project_developer: 'Clean Cooking Technologies Srl',
      vintages: [],
      credits: none,
      sdgs: [1, 3, 4, 5, 7, 8, 12, 13, 15],
      certifications: [],
      source: [{ file: 'projects.csv', lines: [239] }]
    }
  }
}, {
  registry: 'acr',
  files: ['american-carbon-registry/projects.csv', 'american-carbon-registry/issuances.csv'],
  count: 124,
  expected: {
    // projects.csv line 2: voluntary, IFM.
    ACR586: {
      name: '18 Reserves Forest Carbon Project',
      symbol: 'ACR-586',
      registry: 'AMERICAN_CARBON_REGISTRY',
      standard: 'AMERICAN_CARBON_REGISTRY_ACR_STANDARD',
      credit_type: 'AGRICULTURE_FORESTRY_AND_OTHER_LAND_USE',
      url: 'https://acr2.apx.com/mymodule/reg/prjView.asp?id1=586',
      location: 'United States',
      ...located,
      date: '2020-01-15',
      estimated_annual_reductions: null,
      project_developer: 'The Climate Trust',
      vintages: [],
      credits: none,
      sdgs: [3, 6, 9, 13, 15],
      certifications: [],
      source: [{ file: 'projects.csv', lines: [2] }]
    },
    // projects.csv line 6 (CAOD1042, ARB protocol), issuances.csv line 99 (2024: 92,278, ARB Eligible).
    ACR1042: {
      name: 'A-Gas 1-2024',
      symbol: 'ACR-1042',
      registry: 'AMERICAN_CARBON_REGISTRY',
      standard: 'AMERICAN_CARBON_REGISTRY_CALIFORNIA_COMPLIANCE_OFFSET_PROTOCOL',
      credit_type: 'FUGITIVE_EMISSIONS_FROM_INDUSTRIAL_GASES_HALOCARBONS_AND_SULPHUR_HEXAFLUORIDE',
      url: 'https://acr2.apx.com/mymodule/reg/prjView.asp?id1=1042',
      location: 'United States',
      ...located,
      date: '2024-03-20',
      estimated_annual_reductions: null,
      project_developer: 'A-Gas US Inc.',
      vintages: [2024],
      credits: { issued: 92278, retired: null, vintages: [{ vintage: 2024, issued: 92278, retired: null }] },
      sdgs: [9, 12, 13],
      certifications: ['ARB Eligible'],
      source: [{ file: 'projects.csv', lines: [6] }, { file: 'issuances.csv', lines: [99] }]
    },
    // projects.csv line 7 (ECYOD1185, Washington Ecology protocol), issuances.csv line 3 (2025: 85,847).
    ACR1185: {
      name: 'A-Gas 1-2025',
      symbol: 'ACR-1185',
      registry: 'AMERICAN_CARBON_REGISTRY',
      standard: 'AMERICAN_CARBON_REGISTRY_WASHINGTON_COMPLIANCE_OFFSET_PROTOCOL',
      credit_type: 'FUGITIVE_EMISSIONS_FROM_INDUSTRIAL_GASES_HALOCARBONS_AND_SULPHUR_HEXAFLUORIDE',
      url: 'https://acr2.apx.com/mymodule/reg/prjView.asp?id1=1185',
      location: 'United States',
      ...located,
      date: '2024-12-09',
      estimated_annual_reductions: null,
      project_developer: 'A-Gas US Inc.',
      vintages: [2025],
      credits: { issued: 85847, retired: null, vintages: [{ vintage: 2025, issued: 85847, retired: null }] },
      sdgs: [9, 12, 13],
      certifications: ['Washington Ecology Eligible'],
      source: [{ file: 'projects.csv', lines: [7] }, { file: 'issuances.csv', lines: [3] }]
    }
  }
}, {
  registry: 'car',
  files: ['climate-action-reserve/projects.csv', 'climate-action-reserve/issuances.csv'],
  count: 142,
  expected: {
    // projects.csv line 2: ARB reforestation, listed 04/05/2024, not registered.
    CAR1957: {
      name: '2021 Fire Refo',
      symbol: 'CAR-1957',
      registry: 'CLIMATE_ACTION_RESERVE',
      standard: 'CLIMATE_ACTION_RESERVE_CALIFORNIA_COMPLIANCE_OFFSET_PROTOCOL',
      credit_type: 'AGRICULTURE_FORESTRY_AND_OTHER_LAND_USE',
      url: 'https://thereserve2.apx.com/mymodule/reg/prjView.asp?id1=1957',
      location: 'United States',
      ...located,
      date: '2024-04-05',
      estimated_annual_reductions: null,
      project_developer: 'Sierra Pacific Industries',
      vintages: [],
      credits: none,
      sdgs: [],
      certifications: [],
      source: [{ file: 'projects.csv', lines: [2] }]
    },
    // projects.csv line 45 (registered 02/19/2026), issuances.csv line 5 (2025: 32,794, ARB Eligible).
    CAR2135: {
      name: 'Affinity Mine Methane Incineration Project',
      symbol: 'CAR-2135',
      registry: 'CLIMATE_ACTION_RESERVE',
      standard: 'CLIMATE_ACTION_RESERVE_CALIFORNIA_COMPLIANCE_OFFSET_PROTOCOL',
      credit_type: 'FUGITIVE_EMISSIONS_FROM_FUELS_SOLID_OIL_AND_GAS',
      url: 'https://thereserve2.apx.com/mymodule/reg/prjView.asp?id1=2135',
      location: 'United States',
      ...located,
      date: '2026-02-19',
      estimated_annual_reductions: null,
      project_developer: 'Keyrock Energy, LLC',
      vintages: [2025],
      credits: { issued: 32794, retired: null, vintages: [{ vintage: 2025, issued: 32794, retired: null }] },
      sdgs: [],
      certifications: ['ARB Eligible'],
      source: [{ file: 'projects.csv', lines: [45] }, { file: 'issuances.csv', lines: [5] }]
    },
    // projects.csv line 47: SDG Impact "2. Zero Hunger;3. …;15. Life on Land".
    CAR1513: {
      name: 'AgriCapture US Rice Methane Project',
      symbol: 'CAR-1513',
      registry: 'CLIMATE_ACTION_RESERVE',
      standard: 'CLIMATE_ACTION_RESERVE_CLIMATE_ACTION_RESERVE_OFFSET_PROTOCOLS',
      credit_type: 'AGRICULTURE_FORESTRY_AND_OTHER_LAND_USE',
      url: 'https://thereserve2.apx.com/mymodule/reg/prjView.asp?id1=1513',
      location: 'United States',
      ...located,
      date: '2022-10-21',
      estimated_annual_reductions: null,
      project_developer: 'AgriCapture Inc',
      vintages: [],
      credits: none,
      sdgs: [2, 3, 6, 8, 9, 12, 13, 14, 15],
      certifications: [],
      source: [{ file: 'projects.csv', lines: [47] }]
    }
  }
}, {
  registry: 'art',
  files: ['art-trees/projects.csv', 'art-trees/issuances.csv'],
  count: 28,
  expected: {
    ART123: {
      name: 'Acre',
      symbol: 'ART-123',
      registry: 'ART',
      standard: 'ART_THE_REDD_PLUS_ENVIRONMENTAL_EXCELLENCE_STANDARD_TREES',
      credit_type: 'AGRICULTURE_FORESTRY_AND_OTHER_LAND_USE',
      url: 'https://art.apx.com/mymodule/reg/prjView.asp?id1=123',
      location: 'Brazil',
      ...located,
      date: '2023-01-01',
      estimated_annual_reductions: null,
      project_developer: 'Institute of Climate Change and Regulation of Environmental Services (IMC)',
      vintages: [],
      credits: none,
      sdgs: [],
      certifications: [],
      source: [{ file: 'projects.csv', lines: [2] }]
    },
    // projects.csv line 16; issuances.csv lines 3, 5, 7-12: Credits Verified (net of the buffer) per vintage.
    ART102: {
      name: 'Guyana',
      symbol: 'ART-102',
      registry: 'ART',
      standard: 'ART_THE_REDD_PLUS_ENVIRONMENTAL_EXCELLENCE_STANDARD_TREES',
      credit_type: 'AGRICULTURE_FORESTRY_AND_OTHER_LAND_USE',
      url: 'https://art.apx.com/mymodule/reg/prjView.asp?id1=102',
      location: 'Guyana',
      ...located,
      date: '2016-01-01',
      estimated_annual_reductions: null,
      project_developer: 'Guyana Forestry Commission',
      vintages: [2016, 2017, 2018, 2019, 2020, 2021, 2022, 2023],
      credits: {
        issued: 58433813,
        retired: null,
        vintages: unretired([2016, 7867104], [2017, 7604998], [2018, 7252244], [2019, 4478401], [2020, 6267852],
          [2021, 7144362], [2022, 8732929], [2023, 9085923])
      },
      sdgs: [],
      // Its 2023 vintage is not CORSIA eligible (issuances.csv line 3 says No): no project label (docs/registries.md).
      certifications: [],
      source: [{ file: 'projects.csv', lines: [16] }, { file: 'issuances.csv', lines: [3, 5, 7, 8, 9, 10, 11, 12] }]
    },
    // projects.csv line 10: an FCPF programme hosted on ART; country "COTE D'IVOIRE".
    ART130: {
      name: "Cote d'Ivoire Tai National Park Area Emission Reductions Program",
      symbol: 'ART-130',
      registry: 'ART',
      standard: 'ART_FCPF_CARBON_FUND_METHODOLOGICAL_FRAMEWORK',
      credit_type: 'AGRICULTURE_FORESTRY_AND_OTHER_LAND_USE',
      url: 'https://art.apx.com/mymodule/reg/prjView.asp?id1=130',
      location: "Côte d'Ivoire",
      ...located,
      date: '2019-01-01',
      estimated_annual_reductions: null,
      project_developer: "DIRECTION GENERALE DES FINANCEMENTS, MINISTERE DE L'ECONOMIE, DES FINANCES ET DU BUDGET, RCI",
      vintages: [2022, 2023],
      credits: { issued: 219590, retired: null, vintages: unretired([2022, 109794], [2023, 109796]) },
      sdgs: [],
      certifications: [],
      source: [{ file: 'projects.csv', lines: [10] }, { file: 'issuances.csv', lines: [2, 4] }]
    }
  }
}, {
  registry: 'cercarbono',
  files: ['cercarbono/projects.csv'],
  count: 50,
  expected: {
    // Record 1: its serials, buffer serials included (docs/registries.md, "Issued"), by the end year of their
    // vintage ("2010-01-01 / 2018-09-30" → 2018): 62,740 + 11,072 buffer in 2018, etc.
    'CDC-1': {
      name: 'Carbono Agroporvanda',
      symbol: 'CDC-1',
      registry: 'CERCARBONO',
      standard: 'CERCARBONO_CERCARBONO_PROTOCOL',
      credit_type: 'AGRICULTURE_FORESTRY_AND_OTHER_LAND_USE',
      url: 'https://www.ecoregistry.io/projects/CDC-1',
      location: 'Colombia',
      latitude: 8.412918740997307,
      longitude: -75.58408635215012,
      area: null,
      date: null,
      estimated_annual_reductions: null,
      project_developer: 'Forestry Consulting Group S.A.S.',
      vintages: [2008, 2009, 2018],
      credits: {
        issued: 81169,
        retired: null,
        vintages: unretired([2008, 1509], [2009, 5848], [2018, 73812])
      },
      sdgs: [],
      certifications: ['Colombian Carbon Tax', 'Voluntary compensation'],
      source: [{ file: 'projects.csv', lines: [2] }]
    },
    'CDC-4': {
      name: 'Carbono Paja Perdida',
      symbol: 'CDC-4',
      registry: 'CERCARBONO',
      standard: 'CERCARBONO_CERCARBONO_PROTOCOL',
      credit_type: 'AGRICULTURE_FORESTRY_AND_OTHER_LAND_USE',
      url: 'https://www.ecoregistry.io/projects/CDC-4',
      location: 'Colombia',
      latitude: 8.760978958250213,
      longitude: -76.52835205086176,
      area: null,
      date: null,
      estimated_annual_reductions: null,
      project_developer: 'Forestry Consulting Group S.A.S.',
      vintages: [2018, 2019, 2020, 2021, 2022],
      credits: {
        issued: 97199,
        retired: null,
        vintages: unretired([2018, 75532], [2019, 5824], [2020, 5839], [2021, 5824], [2022, 4180])
      },
      sdgs: [8, 13, 15],
      certifications: ['Colombian Carbon Tax', 'Voluntary compensation'],
      source: [{ file: 'projects.csv', lines: [5] }]
    },
    // A cancelled hydro project without serials; annualEstimated 1846456.0.
    'CDC-35': {
      name: 'Proyecto Hidroeléctrico Guavio',
      symbol: 'CDC-35',
      registry: 'CERCARBONO',
      standard: 'CERCARBONO_CERCARBONO_PROTOCOL',
      credit_type: 'ENERGY_INDUSTRIES_RENEWABLE_NON_RENEWABLE_SOURCES',
      url: 'https://www.ecoregistry.io/projects/CDC-35',
      location: 'Colombia',
      latitude: 4.744019972929907,
      longitude: -73.53418839030685,
      area: null,
      date: null,
      estimated_annual_reductions: 1846456,
      project_developer: 'Enel Colombia S.A. E.S.P.',
      vintages: [],
      credits: none,
      sdgs: [],
      certifications: [],
      source: [{ file: 'projects.csv', lines: [71] }]
    }
  }
}, {
  registry: 'isometric',
  files: ['isometric/projects.csv', 'isometric/issuances.csv'],
  count: 50,
  expected: {
    // Totals from the project export (issued 1.47, retired 0.0); issuances.csv line 21 names it (by prj_ id).
    TS26: {
      name: 'A Biochar Project at Satyapura',
      symbol: 'ISO-TS26',
      registry: 'ISOMETRIC',
      standard: 'ISOMETRIC_ISOMETRIC_STANDARD',
      credit_type: 'BIOCHAR',
      url: 'https://to.isometric.com/prj_1K3VWSDS61S0QKV7',
      location: 'India',
      latitude: 27.0238,
      longitude: 74.2179,
      area: null,
      date: '2025-11-27',
      estimated_annual_reductions: null,
      project_developer: 'Equilibrium',
      vintages: [],
      // Its issuances are read: issued is theirs; no retirements export is read: retired is what the project
      // export states (docs/registries.md, "Totals: one rule").
      credits: { issued: 1.47, retired: 0, vintages: [] },
      sdgs: [],
      certifications: [],
      source: [{ file: 'projects.csv', lines: [2] }, { file: 'issuances.csv', lines: [21] }]
    },
    // protocol ocean-alkalinity-enhancement (not in CarbonPlan's mapping): the pathway "marine" decides.
    F5X7: {
      name: 'Nova Scotia Mineral OAE Project',
      symbol: 'ISO-F5X7',
      registry: 'ISOMETRIC',
      standard: 'ISOMETRIC_ISOMETRIC_STANDARD',
      credit_type: 'OCEAN_ALKALINITY_ENHANCEMENT',
      url: 'https://to.isometric.com/prj_1H502CZZH1S0VMYW',
      location: 'Canada',
      latitude: 45,
      longitude: -63,
      area: null,
      date: '2024-02-01',
      estimated_annual_reductions: null,
      project_developer: 'Planetary',
      vintages: [],
      credits: { issued: 4853.6, retired: 1891, vintages: [] },
      sdgs: [],
      certifications: [],
      source: [{ file: 'projects.csv', lines: [39] }, { file: 'issuances.csv', lines: [5, 31, 40, 52] }]
    },
    // Cancelled, no crediting period; "United States of America".
    E9MP: {
      name: 'Project Juniper',
      symbol: 'ISO-E9MP',
      registry: 'ISOMETRIC',
      standard: 'ISOMETRIC_ISOMETRIC_STANDARD',
      credit_type: 'DIRECT_AIR_CAPTURE',
      url: 'https://to.isometric.com/prj_1JQCK4WZX1S0ANXP',
      location: 'United States',
      latitude: 36.2137,
      longitude: -115.1771,
      area: null,
      date: null,
      estimated_annual_reductions: null,
      project_developer: 'Clairity',
      vintages: [],
      credits: { issued: 0, retired: 0, vintages: [] },
      sdgs: [],
      certifications: [],
      source: [{ file: 'projects.csv', lines: [45] }]
    }
  }
}]

forEachDatabase((database) => {
  for (const { registry, files, count, expected } of CASES) {
    describe(`tonne import --from ${registry} [${database}]`, () => {
      test('the sample exports import into the expected projects; a re-import changes nothing', async (t) => {
        const ws = await workspace(t, database)
        const paths = files.map((f) => path.join(RAW, f))
        const report = await importExports(ws, registry, paths)
        assert.equal(report.created, count)
        assert.deepEqual([report.updated, report.unchanged], [0, 0])
        assert.deepEqual(report.files.map((f) => f.file), files.map((f) => path.basename(f)))
        const found = await projects(ws, Object.keys(expected))
        for (const [externalId, project] of found) assert.deepEqual(summary(project), expected[externalId], externalId)

        // The same bytes again: not read again (imported_files), nothing changes.
        const again = await importExports(ws, registry, paths)
        assert.deepEqual([again.created, again.updated, again.unchanged], [0, 0, 0])
        assert.deepEqual(again.already_imported, files.map((f) => ({ file: path.basename(f), as: path.basename(f) })))
        const after = await projects(ws, Object.keys(expected))
        for (const [externalId, project] of after) {
          assert.equal(project.id, found.get(externalId)!.id, `${externalId} keeps its id`)
          assert.equal(project.updated_at, found.get(externalId)!.updated_at, `${externalId} is unchanged`)
        }
      })
    })
  }
})
