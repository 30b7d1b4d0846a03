// A synthetic Verra transactions export (the columns and conventions of Verra's own "VCUs" export, as in
// data/catalogue/raw/offsets-db-data/verra/transactions.csv) for the registry benchmark: `rows` rows over `projects`
// projects, each project's rows split over vintage periods of 20 blocks; seven blocks in ten are retired, one
// retirement in three names a beneficiary. Written as a stream: a million rows never sit in memory.
import { once } from 'node:events'
import { createWriteStream } from 'node:fs'

export const TRANSACTIONS_HEADER = 'Issuance Date,Sustainable Development Goals,Vintage Start,Vintage End,ID,Name,' +
  'Country/Area,Project Type,Methodology,Total Vintage Quantity,Quantity Issued,Serial Number,' +
  'Additional Certifications,Retirement/Cancellation Date,Retirement Beneficiary,Retirement Reason,' +
  'Retirement Details'

const COUNTRIES = ['India', 'China', 'Brazil', 'Peru', 'Kenya', 'Indonesia', 'Colombia', 'Turkey', 'Viet Nam', 'Chile']
const TYPES = ['Energy industries (renewable/non-renewable sources)', 'Agriculture Forestry and Other Land Use',
  '"Livestock, enteric fermentation, and manure management; Waste handling and disposal"']
const METHODS = ['ACM0002', 'VM0015', 'AMS-I.D.', 'VM0007; VMD0001', 'ACM0010']
const BLOCKS_PER_PERIOD = 20

const day = (start: number, offset: number) => new Date(start + offset * 86_400_000).toISOString().slice(0, 10)

/** Writes the export; returns its bytes. Row i belongs to project i mod projects (rows interleave, as Verra's do). */
export async function writeVerraTransactions (file: string, shape: { rows: number, projects: number }):
Promise<number> {
  const out = createWriteStream(file)
  let bytes = 0
  const write = async (text: string) => {
    bytes += Buffer.byteLength(text)
    if (!out.write(text)) await once(out, 'drain')
  }
  await write(`${TRANSACTIONS_HEADER}\n`)
  const base = Date.UTC(2012, 0, 1)
  let batch: string[] = []
  for (let i = 0; i < shape.rows; i++) {
    const p = i % shape.projects
    const nth = Math.floor(i / shape.projects)
    const period = Math.floor(nth / BLOCKS_PER_PERIOD)
    const id = 1000 + p
    const year = 2010 + (period % 14)
    const start = `${year}-01-01`
    const end = `${year}-12-31`
    const issued = day(Date.UTC(year + 1, 2, 1), p % 200)
    const quantity = 100 + ((i * 7919) % 9900)
    const serial = `${10_000 + period}-${i * 10_000}-${i * 10_000 + quantity - 1}-VCS-VCU-${p % 997}-VER-IN-1-${id}-` +
      `0101${year}-3112${year}-0`
    const retired = i % 10 < 7
    const retiredOn = retired ? day(base, (i * 31) % 5000) : ''
    const beneficiary = retired && i % 3 === 0 ? `Company ${i % 4999} Ltd` : ''
    const reason = retired ? 'Retirement for Person or Organization' : ''
    const details = retired && i % 5 === 0 ? `"Offsetting of emissions, ${year} operations"` : ''
    batch.push([issued, i % 4 === 0 ? '"07: Affordable and Clean Energy; 13: Climate Action"' : '', start, end, id,
      `Synthetic Project ${id}`, COUNTRIES[p % COUNTRIES.length], TYPES[p % TYPES.length], METHODS[p % METHODS.length],
      `"${(100_000 + (p % 1000) * 100).toLocaleString('en-US')}"`, quantity, serial,
      p % 3 === 0 ? 'CCB-Gold' : '', retiredOn, beneficiary, reason, details].join(','))
    if (batch.length === 1000) {
      await write(`${batch.join('\n')}\n`)
      batch = []
    }
  }
  if (batch.length > 0) await write(`${batch.join('\n')}\n`)
  out.end()
  await once(out, 'close')
  return bytes
}
