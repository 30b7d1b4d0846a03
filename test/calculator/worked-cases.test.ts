import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { loadCalculatorData } from '../../src/calculator/calculator.data.ts'
import { totalKg } from '../../src/calculator/calculation.ts'
import { calculateCar } from '../../src/calculator/car.ts'
import { calculateClothes } from '../../src/calculator/clothes.ts'
import { calculateDiet } from '../../src/calculator/diet.ts'
import { calculateEnergy } from '../../src/calculator/energy.ts'
import { calculateFlight, greatCircleKm } from '../../src/calculator/flight.ts'
import { calculateFootprint } from '../../src/calculator/footprint.ts'

/**
 * Worked cases computed by hand from the cited factors (the arithmetic is in each `hand`
 * string), checked within 0.5 %. Factor ids are those of data/calculator/*.csv; the DESNZ
 * ids are the 2025 flat-file ids. The first flight, diet, car and energy cases are the
 * worked values of the project's research note (section 4).
 */

const data = loadCalculatorData()

interface WorkedCase {
  name: string
  source: string
  hand: string
  expectedKg: number
  compute: () => number
}

const flight = (query: Record<string, unknown>, rf: 'selected' | 'withoutRf' = 'selected') =>
  () => totalKg(calculateFlight(data, { country_code: 'DEU', ...query })[rf])

const cases: WorkedCase[] = [
  // ---- flights: DESNZ 2025 business travel - air, kg CO2e per passenger-km ----
  { name: 'flight: frequency=often, economy, with RF', source: 'DESNZ 2025 21_316_3164_11_1 (0.12576), 21_316_3170_11_1 (0.11704); research note 4.3', hand: '8 x 1484 x 0.12576 + 4 x 3000 x 0.12576 + 2 x 6799 x 0.11704 = 1493.02 + 1509.12 + 1591.51', expectedKg: 4593.65, compute: flight({ frequency: 'often' }) },
  { name: 'flight: frequency=often, without RF', source: 'DESNZ 2025 21_316_3165_11_1 (0.07435), 21_316_3171_11_1 (0.06926)', hand: '23872 x 0.07435 + 13598 x 0.06926 = 1774.88 + 941.80', expectedKg: 2716.68, compute: flight({ frequency: 'often' }, 'withoutRf') },
  { name: 'flight: frequency=sometimes', source: 'DESNZ 2025 21_316_3164_11_1; research note 4.3 (1,501 kg)', hand: '(4 x 1484 + 2 x 3000) x 0.12576', expectedKg: 1501.07, compute: flight({ frequency: 'sometimes' }) },
  { name: 'flight: frequency=rare', source: 'DESNZ 2025 21_316_3164_11_1; research note 4.3 (373 kg)', hand: '2 x 1484 x 0.12576', expectedKg: 373.26, compute: flight({ frequency: 'rare' }) },
  { name: 'flight: frequency=never', source: 'no flights', hand: '0', expectedKg: 0, compute: flight({ frequency: 'never' }) },
  { name: 'flight: one return long-haul', source: 'DESNZ 2025 21_316_3170_11_1; research note 4.3 (1,592 kg)', hand: '2 x 6799 x 0.11704', expectedKg: 1591.51, compute: flight({ long_haul: 1 }) },
  { name: 'flight: FRA-JFK economy one way', source: 'OpenFlights coordinates, haversine R 6371 km = 6189.44 km; DESNZ 2025 21_316_3170_11_1', hand: '6189.44 x 0.11704', expectedKg: 724.41, compute: flight({ legs: 'FRA-JFK' }) },
  { name: 'flight: FRA-JFK round trip, twice a year', source: 'as above', hand: '4 x 6189.44 x 0.11704', expectedKg: 2897.65, compute: flight({ legs: 'FRA-JFK', round_trip: true, trips: 2 }) },
  { name: 'flight: FRA-JFK without RF', source: 'DESNZ 2025 21_316_3171_11_1 (0.06926)', hand: '6189.44 x 0.06926', expectedKg: 428.68, compute: flight({ legs: 'FRA-JFK', radiative_forcing: false }) },
  { name: 'flight: LHR-MAN, domestic band', source: 'OpenFlights, haversine = 242.81 km; DESNZ 2025 21_316_3160_11_1 (0.22928)', hand: '242.81 x 0.22928', expectedKg: 55.67, compute: flight({ legs: 'lhr-man' }) },
  { name: 'flight: CDG-FRA (449 km), domestic band', source: 'OpenFlights, haversine = 449.00 km; DESNZ 2025 21_316_3160_11_1', hand: '449.00 x 0.22928', expectedKg: 102.95, compute: flight({ legs: 'CDG-FRA' }) },
  { name: 'flight: LHR-EDI (533.5 km), band floor at 500 km', source: 'DESNZ 2025 21_316_3160_11_1; Tonne band floor (docs/methodology.md)', hand: 'max(533.53 x 0.12576, 500 x 0.22928) = max(67.10, 114.64)', expectedKg: 114.64, compute: flight({ legs: 'LHR-EDI' }) },
  { name: 'flight: LHR-SIN-SYD business', source: 'OpenFlights, haversine 10883.29 + 6293.44 km; DESNZ 2025 21_316_3174_11_1 (0.3394)', hand: '17176.73 x 0.3394', expectedKg: 5829.78, compute: flight({ legs: 'LHR-SIN-SYD', cabin_class: 'business' }) },
  { name: 'flight: 2,000 km premium economy (derived short-haul factor)', source: 'DESNZ 2025 21_316_3164_11_1 x 21_316_3172_11_1 / 21_316_3170_11_1', hand: '2000 x 0.12576 x 0.18726 / 0.11704', expectedKg: 402.42, compute: flight({ distance: 2000, cabin_class: 'premium_economy' }) },
  { name: 'flight: 8,000 km business', source: 'DESNZ 2025 21_316_3174_11_1', hand: '8000 x 0.3394', expectedKg: 2715.2, compute: flight({ distance: 8000, cabin_class: 'business' }) },
  { name: 'flight: 1,000 km first (short-haul business factor)', source: 'DESNZ 2025 21_316_3166_11_1 (0.18863)', hand: '1000 x 0.18863', expectedKg: 188.63, compute: flight({ distance: 1000, cabin_class: 'first' }) },
  { name: 'flight: 3,800 km economy, band floor at 3,700 km', source: 'DESNZ 2025 21_316_3164_11_1, 21_316_3170_11_1; Tonne band floor', hand: 'max(3800 x 0.11704, 3700 x 0.12576) = max(444.75, 465.31)', expectedKg: 465.31, compute: flight({ distance: 3800 }) },
  { name: 'flight: 1,000 miles (imperial)', source: '1 mi = 1.609344 km; DESNZ 2025 21_316_3164_11_1', hand: '1609.344 x 0.12576', expectedKg: 202.39, compute: () => totalKg(calculateFlight(data, { country_code: 'USA', distance: 1000 }).selected) },

  // ---- diet: Scarborough et al., kg CO2e per person per day at 2,000 kcal ----
  { name: 'diet: vegan (2023)', source: 'Scarborough 2023 Table 3: 2.47; research note 4.4 (902 kg)', hand: '2.47 x 365', expectedKg: 901.55, compute: () => totalKg(calculateDiet(data, { country_code: 'GBR', diet_form: 'vegan' })) },
  { name: 'diet: vegetarian (2023)', source: 'Scarborough 2023: 4.16', hand: '4.16 x 365', expectedKg: 1518.4, compute: () => totalKg(calculateDiet(data, { country_code: 'GBR', diet_form: 'vegetarian' })) },
  { name: 'diet: pescetarian (Flowcarbon spelling)', source: 'Scarborough 2023: 4.74; research note 4.4 (1,730 kg)', hand: '4.74 x 365', expectedKg: 1730.1, compute: () => totalKg(calculateDiet(data, { country_code: 'GBR', diet_form: 'pescetarian' })) },
  { name: 'diet: high meat (2023)', source: 'Scarborough 2023: 10.24; research note 4.4 (3,738 kg)', hand: '10.24 x 365', expectedKg: 3737.6, compute: () => totalKg(calculateDiet(data, { country_code: 'GBR', diet_form: 'high_meat' })) },
  { name: 'diet: everything in the USA (FAO 126.83 kg/yr -> high meat)', source: 'FAO via OWID USA 2021; Scarborough 2023: 10.24', hand: '126.83 >= 36.5, so 10.24 x 365', expectedKg: 3737.6, compute: () => totalKg(calculateDiet(data, { country_code: 'USA', diet_form: 'everything' })) },
  { name: 'diet: everything in Angola (FAO 19.98 kg/yr -> medium meat)', source: 'FAO via OWID AGO 2021; Scarborough 2023: 7.04', hand: '18.25 <= 19.98 < 36.5, so 7.04 x 365', expectedKg: 2569.6, compute: () => totalKg(calculateDiet(data, { country_code: 'AGO', diet_form: 'everything' })) },
  { name: 'diet: everything in India (FAO 5.69 kg/yr -> low meat)', source: 'FAO via OWID IND 2021; Scarborough 2023: 5.37', hand: '5.69 < 18.25, so 5.37 x 365', expectedKg: 1960.05, compute: () => totalKg(calculateDiet(data, { country_code: 'IND', diet_form: 'everything' })) },
  { name: 'diet: everything in Singapore (no FAO figure -> world 42.85 kg -> high)', source: 'FAO via OWID World 2021; Scarborough 2023: 10.24', hand: '42.85 >= 36.5, so 10.24 x 365', expectedKg: 3737.6, compute: () => totalKg(calculateDiet(data, { country_code: 'SGP', diet_form: 'everything' })) },
  { name: 'diet: vegetarian (2014 study)', source: 'Scarborough 2014: 3.81', hand: '3.81 x 365', expectedKg: 1390.65, compute: () => totalKg(calculateDiet(data, { country_code: 'GBR', diet_form: 'vegetarian', study: 'scarborough_2014' })) },
  { name: 'diet: vegan at 2,500 kcal', source: 'Scarborough 2023: 2.47, standardised to 2,000 kcal', hand: '2.47 x 365 x 2500 / 2000', expectedKg: 1126.94, compute: () => totalKg(calculateDiet(data, { country_code: 'GBR', diet_form: 'vegan', calories: 2500 })) },

  // ---- car, rail, bus: DESNZ 2025 business travel - land ----
  { name: 'car: 10,000 km average petrol', source: 'DESNZ 2025 25_301_3070_4_1 (0.16272); research note 4.5 (1,627 kg)', hand: '10000 x 0.16272', expectedKg: 1627.2, compute: () => totalKg(calculateCar(data, { country_code: 'DEU', distance: 10000, fuel_type: 'petrol' })) },
  { name: 'car: 10,000 km, fuel unknown (default)', source: 'DESNZ 2025 25_301_3074_4_1 (0.16725); research note 4.5 (1,673 kg)', hand: '10000 x 0.16725', expectedKg: 1672.5, compute: () => totalKg(calculateCar(data, { country_code: 'DEU', distance: 10000 })) },
  { name: 'car: large diesel shared by 2', source: 'DESNZ 2025 25_301_3061_4_1 (0.21007)', hand: '10000 x 0.21007 / 2', expectedKg: 1050.35, compute: () => totalKg(calculateCar(data, { country_code: 'DEU', distance: 10000, fuel_type: 'diesel', car_size: 'large', occupancy: 2 })) },
  { name: 'car: small LPG falls back to medium LPG', source: 'DESNZ 2025 25_301_3057_4_1 (0.17427)', hand: '10000 x 0.17427', expectedKg: 1742.7, compute: () => totalKg(calculateCar(data, { country_code: 'DEU', distance: 10000, fuel_type: 'lpg', car_size: 'small' })) },
  { name: 'car: medium plug-in hybrid', source: 'DESNZ 2025 25_301_3059_4_1 (0.0882)', hand: '10000 x 0.0882', expectedKg: 882, compute: () => totalKg(calculateCar(data, { country_code: 'DEU', distance: 10000, fuel_type: 'plug_in_hybrid', car_size: 'medium' })) },
  { name: 'car: electric in Germany', source: 'DESNZ 2025 EV kWh average 0.20656; Ember DEU 2024 344.1 g/kWh; research note 4.5 (711 kg)', hand: '10000 x 0.20656 x 0.3441', expectedKg: 710.77, compute: () => totalKg(calculateCar(data, { country_code: 'DEU', distance: 10000, fuel_type: 'electric' })) },
  { name: 'car: electric in France', source: 'DESNZ 2025 EV kWh average 0.20656; Ember FRA 2024 44.2 g/kWh; research note 4.5 (91 kg)', hand: '10000 x 0.20656 x 0.0442', expectedKg: 91.3, compute: () => totalKg(calculateCar(data, { country_code: 'FRA', distance: 10000, fuel_type: 'electric' })) },
  { name: 'car: 100 miles in the USA (imperial by default)', source: '1 mi = 1.609344 km; DESNZ 2025 25_301_3074_4_1', hand: '160.9344 x 0.16725', expectedKg: 26.92, compute: () => totalKg(calculateCar(data, { country_code: 'USA', distance: 100 })) },
  { name: 'car: petrol at 6 L/100 km', source: 'DESNZ 2025 petrol (average biofuel blend) 2.06916 kg/L', hand: '10000 x 6 / 100 x 2.06916', expectedKg: 1241.5, compute: () => totalKg(calculateCar(data, { country_code: 'DEU', distance: 10000, fuel_type: 'petrol', fuel_economy: 6 })) },
  { name: 'car: petrol at 30 US mpg, 10,000 miles', source: '1 US gal = 3.785411784 L; DESNZ 2025 petrol 2.06916 kg/L', hand: '10000 / 30 x 3.785411784 x 2.06916', expectedKg: 2610.87, compute: () => totalKg(calculateCar(data, { country_code: 'USA', distance: 10000, fuel_type: 'petrol', fuel_economy: 30 })) },
  { name: 'car: diesel at 40 UK mpg, 10,000 miles', source: '1 UK gal = 4.54609 L; DESNZ 2025 diesel 2.57082 kg/L', hand: '10000 / 40 x 4.54609 x 2.57082', expectedKg: 2921.82, compute: () => totalKg(calculateCar(data, { country_code: 'GBR', measurement_system: 'imperial', distance: 10000, fuel_type: 'diesel', fuel_economy: 40, fuel_economy_unit: 'mpg_uk' })) },
  { name: 'car: electric at 18 kWh/100 km in Germany', source: 'Ember DEU 2024 344.1 g/kWh', hand: '10000 x 0.18 x 0.3441', expectedKg: 619.38, compute: () => totalKg(calculateCar(data, { country_code: 'DEU', distance: 10000, fuel_type: 'electric', fuel_economy: 18 })) },
  { name: 'rail: 1,000 km national rail', source: 'DESNZ 2025 25_315_3147_11_1 (0.03546)', hand: '1000 x 0.03546', expectedKg: 35.46, compute: () => totalKg(calculateCar(data, { country_code: 'GBR', distance: 1000, mode: 'rail' })) },
  { name: 'rail: 1,000 km international rail', source: 'DESNZ 2025 25_315_3148_11_1 (0.00446)', hand: '1000 x 0.00446', expectedKg: 4.46, compute: () => totalKg(calculateCar(data, { country_code: 'GBR', distance: 1000, mode: 'rail', rail_type: 'international' })) },
  { name: 'rail: 1,000 km light rail and tram', source: 'DESNZ 2025 25_315_3149_11_1 (0.0286)', hand: '1000 x 0.0286', expectedKg: 28.6, compute: () => totalKg(calculateCar(data, { country_code: 'GBR', distance: 1000, mode: 'rail', rail_type: 'light_rail' })) },
  { name: 'bus: 1,000 km average local bus', source: 'DESNZ 2025 25_314_3145_11_1 (0.10385)', hand: '1000 x 0.10385', expectedKg: 103.85, compute: () => totalKg(calculateCar(data, { country_code: 'GBR', distance: 1000, mode: 'bus' })) },
  { name: 'coach: 1,000 km', source: 'DESNZ 2025 25_314_3146_11_1 (0.02776)', hand: '1000 x 0.02776', expectedKg: 27.76, compute: () => totalKg(calculateCar(data, { country_code: 'GBR', distance: 1000, mode: 'coach' })) },

  // ---- clothes ----
  { name: 'clothes: average in the USA', source: 'EEA 270 kg (2020); GCP 2023 USA consumption 16.535 t; EU 7.83 t; research note 4.6 (~570 kg)', hand: '270 x 16.535 / 7.83 x 1', expectedKg: 570.17, compute: () => totalKg(calculateClothes(data, { country_code: 'USA', amount: 'average' })) },
  { name: 'clothes: little in India', source: 'EEA 270 kg; GCP 2023 IND 1.739 t; research note 4.6 (~60 kg average)', hand: '270 x 1.739 / 7.83 x 0.5', expectedKg: 29.98, compute: () => totalKg(calculateClothes(data, { country_code: 'IND', amount: 'little' })) },
  { name: 'clothes: much in Germany', source: 'EEA 270 kg; GCP 2023 DEU 9.957 t', hand: '270 x 9.957 / 7.83 x 2', expectedKg: 686.69, compute: () => totalKg(calculateClothes(data, { country_code: 'DEU', amount: 'much' })) },
  { name: 'clothes: average in Afghanistan (territorial fallback)', source: 'EEA 270 kg; GCP 2024 AFG territorial 0.266 t', hand: '270 x 0.266 / 7.83', expectedKg: 9.17, compute: () => totalKg(calculateClothes(data, { country_code: 'AFG', amount: 'average' })) },
  { name: 'clothes: none', source: 'multiplier 0', hand: '0', expectedKg: 0, compute: () => totalKg(calculateClothes(data, { country_code: 'DEU', amount: 'none' })) },
  { name: 'clothes: spend 1,000 USD', source: 'US EPA USEEIO v1.2 apparel 0.145 kg/USD', hand: '1000 x 0.145', expectedKg: 145, compute: () => totalKg(calculateClothes(data, { country_code: 'USA', spend_usd: 1000 })) },
  { name: 'clothes: 10 new and 4 second-hand garments', source: 'Levi\'s 501 cradle to retail 20 kg; second-hand share 0.275', hand: '10 x 20 + 4 x 20 x 0.275', expectedKg: 222, compute: () => totalKg(calculateClothes(data, { country_code: 'DEU', new_items: 10, secondhand_items: 4 })) },

  // ---- energy ----
  { name: 'energy: Germany, 80 m2, 2 people, gas', source: 'Ember DEU 344.1 g/kWh; DESNZ 2025 natural gas 0.18296 kg/kWh; 30 and 100 kWh/m2; research note 4.7 (1,145 kg)', hand: '(80 x 30 x 0.3441 + 80 x 100 x 0.18296) / 2 = (825.84 + 1463.68) / 2', expectedKg: 1144.76, compute: () => totalKg(calculateEnergy(data, { country_code: 'DEU', home_size: 80, household_size: 2 })) },
  { name: 'energy: France, 100 m2, electric heating', source: 'Ember FRA 2024 44.2 g/kWh', hand: '(3000 + 10000) x 0.0442', expectedKg: 574.6, compute: () => totalKg(calculateEnergy(data, { country_code: 'FRA', home_size: 100, heating_type: 'electric' })) },
  { name: 'energy: Germany, 100 m2, heat pump (COP 2.8)', source: 'Ember DEU 344.1 g/kWh; COP 2.8', hand: '3000 x 0.3441 + 10000 / 2.8 x 0.3441 = 1032.3 + 1228.93', expectedKg: 2261.23, compute: () => totalKg(calculateEnergy(data, { country_code: 'DEU', home_size: 100, heating_type: 'heat_pump' })) },
  { name: 'energy: UK, measured, heating oil, 3 people', source: 'Ember GBR 2024 210.9 g/kWh; DESNZ 2025 burning oil 0.24677 kg/kWh', hand: '(3500 x 0.2109 + 12000 x 0.24677) / 3 = (738.15 + 2961.24) / 3', expectedKg: 1233.13, compute: () => totalKg(calculateEnergy(data, { country_code: 'GBR', electricity_kwh: 3500, heating_kwh: 12000, heating_type: 'heating_oil', household_size: 3 })) },
  { name: 'energy: Germany, 80 m2, green tariff, gas', source: 'green tariff 0 (assumption); DESNZ 2025 natural gas 0.18296', hand: '2400 x 0 + 8000 x 0.18296', expectedKg: 1463.68, compute: () => totalKg(calculateEnergy(data, { country_code: 'DEU', home_size: 80, energy_type: 'green' })) },
  { name: 'energy: USA, 1,000 ft2, gas (imperial by default)', source: '1 ft2 = 0.09290304 m2; Ember USA 2024 383.5 g/kWh; DESNZ natural gas 0.18296', hand: '92.90304 x 30 x 0.3835 + 92.90304 x 100 x 0.18296 = 1068.85 + 1699.77', expectedKg: 2768.62, compute: () => totalKg(calculateEnergy(data, { country_code: 'USA', home_size: 1000 })) },
  { name: 'energy: Germany, 100 m2, wood', source: 'DESNZ 2025 wood logs 0.0115 kg/kWh (CH4 + N2O)', hand: '3000 x 0.3441 + 10000 x 0.0115', expectedKg: 1147.3, compute: () => totalKg(calculateEnergy(data, { country_code: 'DEU', home_size: 100, heating_type: 'wood' })) },
  { name: 'energy: Germany, 100 m2, district heating', source: 'DESNZ 2025 district heat and steam 0.17529 kg/kWh', hand: '3000 x 0.3441 + 10000 x 0.17529', expectedKg: 2785.2, compute: () => totalKg(calculateEnergy(data, { country_code: 'DEU', home_size: 100, heating_type: 'district_heating' })) },
  { name: 'energy: Germany, 100 m2, LPG', source: 'DESNZ 2025 LPG 0.2145 kg/kWh (gross CV)', hand: '3000 x 0.3441 + 10000 x 0.2145', expectedKg: 3177.3, compute: () => totalKg(calculateEnergy(data, { country_code: 'DEU', home_size: 100, heating_type: 'lpg' })) },
  { name: 'energy: Germany, 50 m2, no heating', source: 'Ember DEU 344.1 g/kWh', hand: '50 x 30 x 0.3441', expectedKg: 516.15, compute: () => totalKg(calculateEnergy(data, { country_code: 'DEU', home_size: 50, heating_type: 'none' })) },

  // ---- national footprint ----
  { name: 'footprint: Germany, consumption', source: 'GCP GCB 2023 via OWID, DEU 2021: 9.957 t', hand: '9.957 x 1000', expectedKg: 9957, compute: () => totalKg(calculateFootprint(data, { country_code: 'DEU' })) },
  { name: 'footprint: USA, territorial', source: 'GCP GCB 2024 via OWID, USA 2023: 14.299 t', hand: '14.299 x 1000', expectedKg: 14299, compute: () => totalKg(calculateFootprint(data, { country_code: 'USA', basis: 'territorial' })) },
  { name: 'footprint: UK, all greenhouse gases', source: 'OWID GHG per capita, GBR 2021: 6.256 t', hand: '6.256 x 1000', expectedKg: 6256, compute: () => totalKg(calculateFootprint(data, { country_code: 'GBR', basis: 'ghg' })) },
  { name: 'footprint: Afghanistan, consumption falls back to territorial', source: 'GCP GCB 2024 via OWID, AFG 2023: 0.266 t', hand: '0.266 x 1000', expectedKg: 266, compute: () => totalKg(calculateFootprint(data, { country_code: 'AFG' })) }
]

describe('worked cases, computed by hand from the cited factors (within 0.5 %)', () => {
  for (const worked of cases) {
    test(`${worked.name} = ${worked.expectedKg} kg [${worked.source}]`, () => {
      const actual = worked.compute()
      const tolerance = Math.max(Math.abs(worked.expectedKg) * 0.005, 1e-9)
      assert.ok(Math.abs(actual - worked.expectedKg) <= tolerance,
        `${worked.name}: got ${actual} kg, expected ${worked.expectedKg} kg (${worked.hand})`)
    })
  }
})

describe('great-circle distance', () => {
  test('FRA-JFK is 6,189 km on a 6,371 km sphere', () => {
    const fra = data.airports.get('FRA')
    const jfk = data.airports.get('JFK')
    assert.ok(fra !== undefined && jfk !== undefined)
    assert.ok(Math.abs(greatCircleKm(fra, jfk) - 6189.44) < 0.5)
  })

  test('a quarter of a meridian is a quarter of the circumference', () => {
    const km = greatCircleKm({ latitude: 0, longitude: 0 }, { latitude: 90, longitude: 0 })
    assert.ok(Math.abs(km - Math.PI * 6371 / 2) < 1e-6)
  })
})
