import { Type, type Static, type TObject, type TProperties } from 'typebox'
import { StringEnum } from '../http/schemas.ts'
import { ENUMS } from './countries.ts'

/**
 * The calculator's contract: query strings (validation and OpenAPI) and response bodies
 * (serialisation). Numeric parameters all carry explicit maxima: ajv coerces "Infinity"
 * to a number, so a cap is what turns it into a 400.
 */

// ---- shared query parameters ----

const countryCode = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'ISO 3166-1 alpha-3 code of the country the person lives in (case-insensitive), one of GET ' +
    '/countries. Required.',
  examples: ['DEU']
})
const measurementSystem = Type.Optional(StringEnum(ENUMS.measurement_system, {
  description: 'Units of the inputs: metric (km, m², L/100 km, kWh/100 km) or imperial (miles, ft², US mpg, kWh/100 ' +
    'mi; converted exactly). Default: the country\'s system (see /config). Results are always in kg, t and lb.'
}))
const boundary = Type.Optional(StringEnum(ENUMS.boundary, {
  description: 'life_cycle (default): direct emissions plus upstream fuel supply (DESNZ well-to-tank) and ' +
    'electricity transmission losses; combustion: direct emissions only. Applied the same way to every category; the ' +
    'answer gives both figures (co2e_life_cycle, co2e_combustion).'
}))
const common = { country_code: countryCode, measurement_system: measurementSystem }
const category = { ...common, boundary }

function query<P extends TProperties> (properties: P) {
  return Type.Object(properties, { additionalProperties: false })
}

export const EmptyQuery = query({})

export const ConfigQuery = query({ ...common })
export type ConfigQuery = Static<typeof ConfigQuery>

export const FootprintQuery = query({
  ...category,
  basis: Type.Optional(StringEnum(ENUMS.basis, {
    description: 'Which national average: consumption (CO2 from what residents consume, trade-adjusted; falls back ' +
      'to territorial where a country has no figure), territorial (CO2 emitted inside the country) or ghg (all ' +
      'greenhouse gases including land use, CO2e). Default: consumption.'
  })),
  scope: Type.Optional(StringEnum(ENUMS.scope, {
    description: 'national (default): the national average. person: a person\'s whole footprint (CO2e): their ' +
      'answers below per category, the country\'s defaults for the rest, plus goods, services and public services ' +
      '(the national consumption footprint less the average of the modelled categories). Any answer below implies ' +
      'person.'
  })),
  flight_frequency: Type.Optional(StringEnum(ENUMS.frequency,
    { description: 'Person: how often they fly (as /flight frequency).' })),
  diet_form: Type.Optional(StringEnum(ENUMS.diet_form,
    { description: 'Person: diet (as /diet). Default everything.' })),
  calories: Type.Optional(Type.Integer({ minimum: 1200, maximum: 4000, description: 'Person: kcal eaten a day.' })),
  car_distance: Type.Optional(Type.Number({
    minimum: 0,
    maximum: 1_000_000,
    description: 'Person: distance travelled a year by car_mode, in km, or in miles when measurement_system is ' +
      'imperial (the default for USA, LBR and MMR).'
  })),
  car_mode: Type.Optional(StringEnum(ENUMS.mode, { description: 'Person: car (default), rail, bus or coach.' })),
  fuel_type: Type.Optional(StringEnum(ENUMS.fuel_type, { description: 'Person: car fuel (as /car).' })),
  clothes_amount: Type.Optional(StringEnum(ENUMS.amount,
    { description: 'Person: clothes bought compared with the average (as /clothes amount). Default average.' })),
  home_size: Type.Optional(Type.Number({
    exclusiveMinimum: 0,
    maximum: 60_000,
    description: 'Person: floor area (as /energy), in m², or in ft² when measurement_system is imperial (the ' +
      'default for USA, LBR and MMR), 1 to 5,000 m².'
  })),
  household_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, description: 'Person: people in the home.' })),
  heating_type: Type.Optional(StringEnum(ENUMS.heating_type, { description: 'Person: heating (as /energy).' })),
  energy_type: Type.Optional(StringEnum(ENUMS.energy_type, { description: 'Person: electricity tariff.' })),
  electricity_kwh: Type.Optional(Type.Number({ minimum: 0, maximum: 200_000, description: 'Person: household kWh.' })),
  heating_kwh: Type.Optional(Type.Number(
    { minimum: 0, maximum: 200_000, description: 'Person: household heating kWh.' }))
})
export type FootprintQuery = Static<typeof FootprintQuery>

export const FlightQuery = query({
  ...category,
  frequency: Type.Optional(StringEnum(ENUMS.frequency, {
    description: 'Flowcarbon profile. never; rare = 1 return short-haul flight a year; sometimes = 2 return ' +
      'short-haul and 1 return medium-haul; often = 4 return short-haul, 2 medium-haul and 1 long-haul. One of four ' +
      'input modes (frequency, flight counts, legs, distance): give exactly one.'
  })),
  short_haul: Type.Optional(Type.Integer({
    minimum: 0,
    maximum: 200,
    description: 'Return short-haul flights a year (about 1,484 km each way). Flight-count mode, with medium_haul ' +
      'and long_haul.'
  })),
  medium_haul: Type.Optional(Type.Integer({
    minimum: 0,
    maximum: 200,
    description: 'Return medium-haul flights a year (3,000 km each way). Flight-count mode.'
  })),
  long_haul: Type.Optional(Type.Integer({
    minimum: 0,
    maximum: 200,
    description: 'Return long-haul flights a year (about 6,799 km each way). Flight-count mode.'
  })),
  legs: Type.Optional(Type.String({
    maxLength: 800,
    description: 'Flights by IATA airport code: comma-separated routes, each two or more codes joined by "-", e.g. ' +
      '"FRA-JFK,JFK-FRA" or "LHR-SIN-SYD". At most 50 legs. Distance is the great-circle distance between the airports.'
  })),
  distance: Type.Optional(Type.Number({
    exclusiveMinimum: 0,
    maximum: 20038,
    description: 'One-way great-circle distance of one flight, in km, or in miles when measurement_system is ' +
      'imperial (the default for USA, LBR and MMR: send measurement_system to be sure). At most half the ' +
      'Earth\'s circumference (20,038 km).'
  })),
  trips: Type.Optional(Type.Integer({
    minimum: 1,
    maximum: 500,
    description: 'How many times a year the legs or the distance are flown. Default 1. Legs and distance modes ' +
      'only.'
  })),
  round_trip: Type.Optional(
    Type.Boolean(
      { description: 'true: each leg or distance is also flown back. Default false. Legs and distance modes only.' })),
  cabin_class: Type.Optional(StringEnum(ENUMS.cabin_class,
    {
      description: 'Cabin class; average = DESNZ average passenger. Default economy. In every band economy <= ' +
      'premium_economy <= business <= first.'
    })),
  radiative_forcing: Type.Optional(
    Type.Boolean(
      {
        description: 'Include the non-CO2 warming effect of aviation (DESNZ "with RF" factors). Default true. The ' +
        'response carries both values either way.'
      }))
})
export type FlightQuery = Static<typeof FlightQuery>

export const DietQuery = query({
  ...category,
  diet_form: StringEnum(ENUMS.diet_form, {
    description: 'Diet. Every form uses the country\'s food supply mix (FAO) with Poore and Nemecek factors per ' +
      'food group: everything = the country\'s average; vegetarian drops meat, vegan meat, dairy and eggs, ' +
      'pescetarian eats farmed fish instead of meat (pescatarian is the same), low_meat / medium_meat eat 25 / 75 g ' +
      'of meat a day, high_meat at least 100 g and never less than the country\'s average. Required.'
  }),
  calories: Type.Optional(Type.Integer({
    minimum: 1200,
    maximum: 4000,
    description: 'Daily food energy eaten, in kcal; the food counted adds the 17 % wasted (UNEP 2021). Default the ' +
      'country\'s food supply x (1 - 0.17).'
  })),
  study: Type.Optional(StringEnum(ENUMS.study,
    {
      description: 'Accepted for compatibility; no longer changes the result (every form uses the same method ' +
        'since issue 35).'
    }))
})
export type DietQuery = Static<typeof DietQuery>

export const CarQuery = query({
  ...category,
  distance: Type.Number({
    minimum: 0,
    maximum: 1_000_000,
    description: 'Distance travelled a year, in km, or in miles when measurement_system is imperial (the default ' +
      'for USA, LBR and MMR: send measurement_system to be sure). At most 1,000,000 km. Required.'
  }),
  mode: Type.Optional(StringEnum(ENUMS.mode,
    { description: 'car (default), rail, bus (average local bus) or coach.' })),
  fuel_type: Type.Optional(StringEnum(ENUMS.fuel_type,
    { description: 'Car fuel. Default unknown (DESNZ average of the fleet). Car mode only.' })),
  car_size: Type.Optional(StringEnum(ENUMS.car_size,
    {
      description: 'DESNZ size band: small (petrol < 1.4 l, diesel < 1.7 l), medium, large (> 2.0 l) or average. ' +
      'Default average. Car mode only.'
    })),
  occupancy: Type.Optional(Type.Integer({
    minimum: 1,
    maximum: 9,
    description: 'People sharing the car, the result is divided between them. Default 1. Car mode only.'
  })),
  fuel_economy: Type.Optional(Type.Number({
    exclusiveMinimum: 0,
    maximum: 1000,
    description: 'Measured fuel economy; replaces the size and fuel factor. Unit in fuel_economy_unit. Car mode ' +
      'only; needs fuel_type petrol, diesel, hybrid, lpg or electric.'
  })),
  fuel_economy_unit: Type.Optional(StringEnum(ENUMS.fuel_economy_unit,
    {
      description: 'Unit of fuel_economy. Default l_per_100km (metric) or mpg_us (imperial); kwh_per_100km or ' +
      'kwh_per_100mi for electric cars.'
    })),
  rail_type: Type.Optional(StringEnum(ENUMS.rail_type,
    {
      description: 'national (default), international (e.g. Eurostar), light_rail (light rail and tram) or ' +
      'underground. Rail mode only.'
    }))
})
export type CarQuery = Static<typeof CarQuery>

export const ClothesQuery = query({
  ...category,
  amount: Type.Optional(StringEnum(ENUMS.amount,
    {
      description: 'How much clothing the person buys compared with the average: none, little (half), average, much ' +
      '(twice); average = the EEA EU-27 footprint of clothing and footwear (2020: 270 kg CO2e a year for all ' +
      'textiles less the household textiles in it, by mass: 160.5 kg), stated as an EU figure for every country. ' +
      'One of three input modes (amount, spend_usd, items): give exactly one; the other two say what the EU ' +
      'average is in their terms.'
    })),
  spend_usd: Type.Optional(Type.Number({
    minimum: 0,
    maximum: 100_000,
    description: 'Yearly spending on clothes in US dollars (2021 prices, purchaser price). Spend mode.'
  })),
  new_items: Type.Optional(Type.Integer({
    minimum: 0,
    maximum: 1000,
    description: 'New garments bought a year. Item mode, with secondhand_items.'
  })),
  secondhand_items: Type.Optional(Type.Integer({
    minimum: 0,
    maximum: 1000,
    description: 'Second-hand garments bought a year. Item mode, with new_items.'
  }))
})
export type ClothesQuery = Static<typeof ClothesQuery>

export const EnergyQuery = query({
  ...category,
  household_size: Type.Optional(Type.Integer({
    minimum: 1,
    maximum: 20,
    description: 'People living in the home; the result is per person. Default: the country\'s average household ' +
      'size (UN DESA), so the default answer is the average resident\'s.'
  })),
  home_size: Type.Optional(Type.Number({
    exclusiveMinimum: 0,
    maximum: 60_000,
    description: 'Floor area in m², or in ft² when measurement_system is imperial (the default for USA, LBR and ' +
      'MMR: send measurement_system to be sure), 1 to 5,000 m². Sets the default heating: the country\'s ' +
      'average household\'s heat per m² of the country\'s typical dwelling (cited for the USA and GBR, else 35 m² ' +
      'per person, an assumption) times this area (see docs/methodology.md). Not used when heating_kwh is given.'
  })),
  energy_type: Type.Optional(StringEnum(ENUMS.energy_type,
    {
      description: 'conventional (default): the grid; green: a renewable electricity tariff, whose market-based ' +
      'figure uses the IPCC life-cycle intensity of onshore wind (11 g CO2e/kWh), never zero.'
    })),
  electricity_method: Type.Optional(StringEnum(ENUMS.electricity_method,
    {
      description: 'Which GHG Protocol Scope 2 figure goes into co2e: location_based (default, the country\'s grid) ' +
      'or market_based (the tariff). The answer always gives both (electricity).'
    })),
  heating_type: Type.Optional(StringEnum(ENUMS.heating_type,
    {
      description: 'Main heating. Default natural_gas; without heating_kwh the heat demand is the country\'s average ' +
      '(buildings CO2 per person as natural-gas kWh).'
    })),
  electricity_kwh: Type.Optional(Type.Number({
    minimum: 0,
    maximum: 200_000,
    description: 'Measured electricity use of the household a year, in kWh (excluding electric heating given in ' +
      'heating_kwh). Default: the country\'s household electricity per person x its average household size.'
  })),
  heating_kwh: Type.Optional(Type.Number({
    minimum: 0,
    maximum: 200_000,
    description: 'Measured heating energy bought a year, in kWh: fuel for boilers, heat for district heating, ' +
      'electricity for electric heating and heat pumps. Default: the country\'s average (see heating_type).'
  }))
})
export type EnergyQuery = Static<typeof EnergyQuery>

// ---- responses ----

const Mass = Type.Object({
  kg: Type.Number({ description: 'kg CO2e' }),
  t: Type.Number({ description: 'metric tonnes CO2e' }),
  lb: Type.Number({ description: 'pounds CO2e' })
}, { title: 'Mass', additionalProperties: false })

const BreakdownItem = Type.Object({
  category: Type.String({ description: 'What the entry covers, e.g. long_haul, car, electricity.' }),
  label: Type.String({ description: 'Human-readable name of the entry.' }),
  kg_co2e: Type.Number({ description: 'kg CO2e = quantity x factor.' }),
  quantity: Type.Number(),
  quantity_unit: Type.String(),
  factor: Type.Number({ description: 'The emission factor applied.' }),
  factor_unit: Type.String(),
  factor_id: Type.String({ description: '<source id>:<identifier in the source>, e.g. desnz-2025:21_316_3170_11_1.' }),
  factor_status: StringEnum(['published', 'unverified', 'assumption'] as const, {
    description: 'published: read from the publisher\'s file; unverified: transcribed by a third party, not yet ' +
      'checked against the official file; assumption: a Tonne design assumption (docs/methodology.md).'
  }),
  source: Type.String({ description: 'Id of the entry in sources.' }),
  derivation: Type.Optional(Type.String({ description: 'How a derived factor was computed from published ones.' })),
  note: Type.Optional(Type.String()),
  range: Type.Object({
    low_kg: Type.Number(),
    high_kg: Type.Number(),
    basis: Type.Array(Type.String(),
      { description: 'The cited intervals the range spans, or a statement that none is cited.' })
  }, {
    additionalProperties: false,
    description: 'Lowest and highest kg of this entry over cited alternatives only (both boundaries, radiative ' +
      'forcing, both electricity methods, cited intervals of inputs).'
  })
}, { title: 'BreakdownItem', additionalProperties: false })

const DefaultUsed = Type.Object({
  parameter: Type.String(),
  value: Type.Union([Type.String(), Type.Number(), Type.Boolean()]),
  basis: Type.String({ description: 'Where the default comes from.' })
}, { title: 'DefaultUsed', additionalProperties: false })

const CountryDatum = Type.Object({
  figure: Type.String({ description: 'What the figure is, e.g. grid_intensity, td_losses, household_size.' }),
  country_code: Type.String(),
  value: Type.Number(),
  unit: Type.String(),
  year: Type.Integer({ description: 'The year the figure describes.' }),
  factor_id: Type.String(),
  factor_status: StringEnum(['published', 'unverified', 'assumption'] as const,
    { description: 'assumption: a regional value stands in for a missing or impossible national one.' }),
  source: Type.String(),
  description: Type.String()
}, { title: 'CountryDatum', additionalProperties: false })

const Source = Type.Object({
  id: Type.String(),
  name: Type.String(),
  publisher: Type.String(),
  year: Type.Optional(Type.Integer()),
  licence: Type.String(),
  url: Type.Optional(Type.String()),
  attribution: Type.Optional(Type.String())
}, { title: 'CalculatorSource', additionalProperties: false })

// Every answer's first and last properties; its own (inputs and any extra figures) stand between them.
const resultHead = {
  country_code: Type.String(),
  measurement_system: StringEnum(ENUMS.measurement_system,
    { description: 'The measurement system the inputs were read in.' }),
  units_read: Type.Object({
    distance: Type.String(),
    area: Type.String(),
    volume: Type.String(),
    fuel_economy: Type.String(),
    electric_fuel_economy: Type.String(),
    mass: Type.String()
  }, {
    title: 'UnitsRead',
    additionalProperties: false,
    description: 'The unit each kind of input was read in (distance km or mi, area m2 or ft2, ...): the ' +
      'measurement system\'s, stated so that a number is never read in a unit the caller did not mean.'
  }),
  t_co2: Type.Number({ description: 'Metric tonnes CO2e per person per year, 2 decimals (Flowcarbon-compatible).' }),
  ton: Type.Literal('t', { description: 'Unit label of t_co2 (Flowcarbon-compatible).' }),
  co2e: Mass,
  period: Type.Literal('year'),
  per: Type.Literal('person'),
  boundary: StringEnum(ENUMS.boundary, { description: 'The boundary of co2e.' }),
  co2e_life_cycle: Mass,
  co2e_combustion: Mass,
  range: Type.Object({
    low: Mass,
    high: Mass,
    basis: Type.Array(Type.String())
  }, {
    title: 'ResultRange',
    additionalProperties: false,
    description: 'Sum of the breakdown entries\' ranges: the cited intervals of factors and defaults only ' +
      '(other method choices have their own fields); low <= co2e <= high.'
  }),
  warnings: Type.Array(Type.String(), {
    description: 'Set when the result exceeds the country\'s whole per-person footprint, or an input is ' +
      'implausible in the unit it was read in (e.g. a home under 10 m2 per person).'
  })
}
const resultTail = {
  breakdown: Type.Array(BreakdownItem, { description: 'Entries sum to co2e (allowing for rounding).' }),
  defaults_used: Type.Array(DefaultUsed,
    { description: 'Every parameter left out and the default that stood in, with its basis.' }),
  country_data: Type.Array(CountryDatum, { description: 'Every country figure used, with its year and source.' }),
  assumptions: Type.Array(Type.String()),
  sources: Type.Array(Source)
}

/**
 * What every calculator answer states (each answer is this plus its inputs and its own figures). No route answers
 * it alone: `npm run client:generate` adds it to the document it reads, so the client's types state it once and
 * each answer as `CalculatorResultBase & { inputs, ... }`.
 */
export const CalculatorResultBase = Type.Object({ ...resultHead, ...resultTail }, {
  title: 'CalculatorResultBase',
  additionalProperties: false,
  description: 'The part every calculator answer shares.'
})

function result<I extends TObject, X extends TProperties> (title: string, inputs: I, extra: X, description: string) {
  return Type.Object({ ...resultHead, inputs, ...extra, ...resultTail },
    { title, additionalProperties: false, description })
}

const Airport = Type.Object({ iata: Type.String(), name: Type.String(), city: Type.String(), country: Type.String() },
  { additionalProperties: false })
const Length = Type.Object({ value: Type.Number(), unit: Type.String() }, { additionalProperties: false })
const Stat = Type.Object({ t: Type.Number(), year: Type.Integer(), unit: Type.String(), source: Type.String() },
  { additionalProperties: false })

export const FlightInputs = Type.Object({
  mode: StringEnum(['frequency', 'flight_counts', 'legs', 'distance'] as const),
  frequency: Type.Optional(Type.String()),
  return_flights: Type.Optional(Type.Object({
    short_haul: Type.Integer(),
    medium_haul: Type.Integer(),
    long_haul: Type.Integer()
  }, { additionalProperties: false })),
  legs: Type.Optional(Type.Array(Type.Object({ from: Airport, to: Airport, distance_km: Type.Number() },
    { additionalProperties: false }))),
  distance: Type.Optional(Length),
  distance_km: Type.Optional(Type.Number()),
  trips: Type.Optional(Type.Integer()),
  round_trip: Type.Optional(Type.Boolean()),
  cabin_class: Type.String(),
  radiative_forcing: Type.Boolean(),
  flights: Type.Integer({ description: 'One-way flights counted.' }),
  flown_km: Type.Number({ description: 'Great-circle km flown, all flights.' })
}, { additionalProperties: false })
export type FlightInputs = Static<typeof FlightInputs>

export const FlightResult = result('FlightResult', FlightInputs, {
  co2e_with_rf: Mass,
  co2e_without_rf: Mass,
  radiative_forcing: Type.Object({ included: Type.Boolean(), method: Type.String() }, { additionalProperties: false })
}, 'Flights of one person in a year.')

export const DietInputs = Type.Object({
  diet_form: Type.String(),
  diet_used: Type.String({
    description: 'country_food_supply for diet_form=everything (the country\'s average diet from its FAO food ' +
      'supply), country_food_supply:<form> for a form applied to that mix.'
  }),
  study: Type.String(),
  calories: Type.Integer(),
  meat_supply: Type.Optional(Type.Object({
    kg_per_year: Type.Number({ description: 'FAO meat supply (carcass weight).' }),
    eaten_g_per_day: Type.Number(
      { description: 'Estimated meat eaten: supply x 0.7623 (Colombani and Brunner 2024) / 365 x 1000.' }),
    year: Type.Integer(),
    country_code: Type.String()
  }, { additionalProperties: false }))
}, { additionalProperties: false })
export type DietInputs = Static<typeof DietInputs>

export const DietResult = result('DietResult', DietInputs, {}, 'A year of a diet.')

export const CarInputs = Type.Object({
  mode: Type.String(),
  distance: Length,
  distance_km: Type.Number(),
  fuel_type: Type.Optional(Type.String()),
  car_size: Type.Optional(Type.String()),
  occupancy: Type.Optional(Type.Integer()),
  fuel_economy: Type.Optional(Type.Object({
    value: Type.Number(),
    unit: Type.String(),
    per_km: Type.Number(),
    per_km_unit: Type.String()
  }, { additionalProperties: false })),
  rail_type: Type.Optional(Type.String()),
  factor_region: Type.String(
    { description: 'Whose figure the factor is: GBR for DESNZ UK factors, or the country when its own grid is used.' })
}, { additionalProperties: false })
export type CarInputs = Static<typeof CarInputs>

export const CarResult = result('CarResult', CarInputs, {}, 'A year of travel by car, rail or bus.')

export const ClothesInputs = Type.Object({
  mode: StringEnum(['amount', 'spend', 'items'] as const),
  amount: Type.Optional(Type.String()),
  spend_usd: Type.Optional(Type.Number()),
  new_items: Type.Optional(Type.Integer()),
  secondhand_items: Type.Optional(Type.Integer()),
  factor_region: Type.String(
    {
      description: 'Whose figure the factor is: EU-27 (EEA) for amount, US (US EPA) for spend, global (one LCA) for ' +
      'items.'
    })
}, { additionalProperties: false })
export type ClothesInputs = Static<typeof ClothesInputs>

export const ClothesResult = result('ClothesResult', ClothesInputs, {}, 'A year of clothes shopping.')

export const EnergyInputs = Type.Object({
  household_size: Type.Number(
    { description: 'People sharing the home: as given, or the country\'s average household size.' }),
  home_size: Type.Optional(Length),
  home_size_m2: Type.Optional(Type.Number()),
  energy_type: Type.String(),
  electricity_method: Type.String(),
  heating_type: Type.String(),
  electricity_kwh: Type.Number({ description: 'Household electricity a year (kWh), measured or the country default.' }),
  electricity_source: StringEnum(['measured', 'country_default'] as const),
  heating_kwh: Type.Number(
    { description: 'Household heating energy bought a year (kWh), measured or the country default.' }),
  heating_source: StringEnum(['measured', 'country_default', 'none'] as const)
}, { additionalProperties: false })
export type EnergyInputs = Static<typeof EnergyInputs>

export const EnergyResult = result('EnergyResult', EnergyInputs, {
  electricity: Type.Object({
    method: StringEnum(ENUMS.electricity_method, { description: 'The method whose figure is in co2e.' }),
    location_based: Mass,
    market_based: Mass,
    market_based_basis: Type.String()
  }, {
    additionalProperties: false,
    description: 'The answer\'s total by each GHG Protocol Scope 2 method (same boundary).'
  })
}, 'A year of home electricity and heating, per person.')

export const FootprintInputs = Type.Object({
  basis: Type.String({ description: 'The basis asked for.' }),
  scope: Type.String({ description: 'national or person.' })
}, { additionalProperties: false })

const PersonPart = Type.Object({
  category: Type.String(),
  label: Type.String(),
  you_kg: Type.Number({ description: 'This person, kg CO2e a year.' }),
  average_kg: Type.Number({ description: 'The country\'s average person, same category and method.' }),
  difference_kg: Type.Number({ description: 'you_kg - average_kg.' }),
  from: StringEnum(['your answers', 'country default', 'national average'] as const)
}, { additionalProperties: false })
export type FootprintInputs = Static<typeof FootprintInputs>

export const FootprintResult = result('FootprintResult', FootprintInputs, {
  basis: StringEnum(ENUMS.basis,
    { description: 'The basis used (consumption falls back to territorial where missing).' }),
  gases: StringEnum(['co2', 'co2e'] as const,
    { description: 'co2 for the consumption and territorial bases (CO2 only), co2e for ghg.' }),
  values: Type.Object({
    consumption_co2: Type.Union([Stat, Type.Null()]),
    territorial_co2: Stat,
    ghg_co2e: Type.Union([Stat, Type.Null()])
  }, { additionalProperties: false }),
  world: Stat,
  person: Type.Union([Type.Object({
    parts: Type.Array(PersonPart, { description: 'Each part of the person\'s total, with the average person\'s.' }),
    national_co2e_kg: Type.Number({
      description: 'The average person\'s whole footprint in CO2e: consumption CO2 x (GHG / territorial CO2).'
    }),
    national_basis: Type.String()
  }, { additionalProperties: false }), Type.Null()], {
    description: 'scope=person: the parts of co2e (they add up to it) and where this person differs from the ' +
      'average; null for the national average.'
  }),
  ratio_to_world: Type.Number({ description: 'Country value / world value, same basis.' }),
  year: Type.Integer({
    description: 'The one year of every figure in the answer (values, world): the latest year with ' +
      'consumption-based CO2, so the bases compare like with like. Each figure also carries its own year.'
  })
}, 'The average footprint of a person living in the country.')

const CountryItem = Type.Object({
  country_code: Type.String({ description: 'ISO 3166-1 alpha-3.' }),
  country_name: Type.String(),
  sub_region: Type.String({ description: 'UN M49 sub-region.' }),
  region: Type.String({ description: 'UN M49 region: Africa, Americas, Asia, Europe or Oceania.' }),
  measurement_system: StringEnum(ENUMS.measurement_system)
}, { additionalProperties: false })

export const CountryList = Type.Array(CountryItem,
  { description: 'Every supported country, ordered by name (Intl.Collator("en")).' })

export const ConfigResult = Type.Object({
  country_code: Type.String(),
  country_name: Type.String(),
  sub_region: Type.String(),
  region: Type.String(),
  measurement_system: StringEnum(ENUMS.measurement_system,
    { description: 'The system inputs are read in (the requested one, else the country\'s).' }),
  default_measurement_system: StringEnum(ENUMS.measurement_system, { description: 'The country\'s usual system.' }),
  units: Type.Object({
    distance: Type.String(),
    area: Type.String(),
    volume: Type.String(),
    fuel_economy: Type.String(),
    electric_fuel_economy: Type.String(),
    emissions: Type.String()
  }, { additionalProperties: false }),
  enums: Type.Record(Type.String(), Type.Array(Type.String()),
    { description: 'Allowed values of every enumerated parameter.' }),
  defaults: Type.Object({
    diet_form: Type.String(),
    study: Type.String(),
    cabin_class: Type.String(),
    radiative_forcing: Type.Boolean(),
    round_trip: Type.Boolean(),
    trips: Type.Integer(),
    mode: Type.String(),
    fuel_type: Type.String(),
    car_size: Type.String(),
    occupancy: Type.Integer(),
    rail_type: Type.String(),
    energy_type: Type.String(),
    heating_type: Type.String(),
    household_size: Type.Number({ description: 'The country\'s average household size (UN DESA).' }),
    calories: Type.Integer(),
    basis: Type.String(),
    boundary: Type.String(),
    electricity_method: Type.String()
  }, { additionalProperties: false })
}, { additionalProperties: false })

export const Pong = Type.Object({ message: Type.Literal('pong') }, { additionalProperties: false })
