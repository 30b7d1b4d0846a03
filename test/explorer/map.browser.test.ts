import assert from 'node:assert/strict'
import { test } from 'node:test'
import { project } from '../fixtures/projects.ts'
import { axeViolations, DESKTOP, inPage, PHONE, screenshot, serviceAndPage } from './browser.ts'

// The map: not a view of its own but the same drawing beside the catalogue's list (every matching project) and on a
// project's page (zoomed to it); its country outline for a project without coordinates is in
// project.browser.test.ts. Only a browser can check what is here: the markers as drawn and their size as targets,
// clusters, zoom and pan by click, drag and arrow keys, and hover linking list and map.

// Issue 15, finding 13: a map of every matching project, not just the page's.

/** 30 projects close together in Gabon, 10 spread over the western hemisphere, 5 unlocated, 3 at one place. */
function records () {
  const near = Array.from({ length: 30 }, (_, i) => project(i + 1, {
    name: `Gabon Forest ${i + 1}`,
    location: 'Gabon',
    latitude: -0.5 + (i % 6) * 0.1,
    longitude: 11.5 + Math.floor(i / 6) * 0.1
  }))
  const spread = Array.from({ length: 10 }, (_, i) => project(i + 31, {
    name: `Spread ${i + 31}`, location: 'Brazil', latitude: -60 + i * 14, longitude: -170 + i * 18
  }))
  const unlocated = Array.from({ length: 5 },
    (_, i) => project(i + 41, { name: `Unlocated ${i + 41}`, location: 'Peru' }))
  // Three at the very same coordinates (registries often give a city's): zooming cannot split them.
  const together = Array.from({ length: 3 }, (_, i) => project(i + 46, {
    name: `Ulaanbaatar Stoves ${i + 46}`, location: 'Mongolia', latitude: 47.9, longitude: 106.9
  }))
  return [...near, ...spread, ...unlocated, ...together]
}

type Marker = { count: number, width: number, height: number, ids: string }
const markers = async (page: import('playwright-core').Page) => await page.locator('.map .marker').evaluateAll((list) =>
  list.map((element) => {
    const e = element as unknown as {
      dataset: { count: string, ids: string }
      getBoundingClientRect: () => { width: number, height: number }
    }
    const box = e.getBoundingClientRect()
    return { count: Number(e.dataset.count), width: box.width, height: box.height, ids: e.dataset.ids }
  })) as Marker[]
const viewBox = async (page: import('playwright-core').Page) =>
  (await page.locator('.map svg').first().getAttribute('viewBox') ?? '').split(' ').map(Number)

test('map: every matching located project, clustered, with pan and zoom, 24 px targets, linked with the list',
  async (t) => {
    const { baseUrl, key, browser, page } = await serviceAndPage(t, { records: records() }, DESKTOP)
    await page.goto(`${baseUrl}/#/projects?limit=10&ordering=name`)
    await page.getByLabel('API key', { exact: true }).fill(key)
    await page.getByRole('button', { name: 'Use this key' }).click()
    await page.locator('.map[data-loaded="true"]').waitFor()

    const world = await markers(page)
    assert.equal(world.reduce((sum, m) => sum + m.count, 0), 43, 'all 43 located projects, not the page\'s 10')
    assert.ok(world.some((m) => m.count >= 20), 'the Gabon projects form a cluster')
    for (const m of world) assert.ok(m.width >= 24 && m.height >= 24, `a target of ${m.width}×${m.height}`)
    assert.match(await page.locator('.map figcaption').textContent() ?? '', /43 of the 48 matching projects/)

    // A filter narrows the map as it narrows the list.
    await page.goto(`${baseUrl}/#/projects?limit=10&location=Brazil`)
    await page.locator('.map[data-loaded="true"][data-total="10"]').waitFor()
    assert.equal((await markers(page)).reduce((sum, m) => sum + m.count, 0), 10)

    // Zoom with the buttons, into a cluster with a click, and pan by dragging.
    await page.goto(`${baseUrl}/#/projects?limit=10&ordering=name`)
    await page.locator('.map[data-loaded="true"][data-total="43"]').waitFor()
    const [, , width] = await viewBox(page)
    await page.getByRole('button', { name: 'Zoom in', exact: true }).click()
    assert.ok((await viewBox(page))[2]! < width!, 'zoomed in')
    await page.getByRole('button', { name: 'Show the whole world' }).click()
    assert.equal((await viewBox(page))[2], width)
    const cluster = page.locator('.map .marker[data-count="30"]')
    await cluster.click()
    assert.ok((await viewBox(page))[2]! < width! / 4, 'a cluster opens by zooming into it')
    assert.ok((await markers(page)).filter((m) => m.count === 1).length > 1, 'zoomed in, the cluster splits')
    const before = await viewBox(page)
    const box = await page.locator('.map svg').first().boundingBox()
    assert.ok(box !== null)
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    await page.mouse.down()
    await page.mouse.move(box.x + box.width / 2 + 100, box.y + box.height / 2, { steps: 5 })
    await page.mouse.up()
    assert.ok((await viewBox(page))[0]! < before[0]!, 'dragging right moves the view west')
    const dragged = await viewBox(page)
    await page.getByRole('group', { name: /^Map: arrow keys/ }).press('ArrowRight')
    assert.ok((await viewBox(page))[0]! > dragged[0]!, 'the arrow keys pan too')
    await page.getByRole('button', { name: 'Show the whole world' }).click()

    // Projects at one place are listed, not zoomed into for ever.
    await page.getByRole('button', { name: '3 projects here: list them' }).click()
    await page.locator('.map-group a').first().waitFor()
    const listed = await page.locator('.map-group a').allTextContents()
    assert.deepEqual(listed.sort(), ['Ulaanbaatar Stoves 46', 'Ulaanbaatar Stoves 47', 'Ulaanbaatar Stoves 48'])
    assert.equal(await inPage(page, 'document.activeElement?.className'), 'map-group-heading')
    await page.getByRole('button', { name: 'Close the list' }).click()

    // Hover links list and map both ways; the first page (by name) is ten of the Gabon projects.
    await page.locator('.project-card', { hasText: 'Gabon Forest 1' }).first().hover()
    assert.equal(await page.locator('.map .marker.highlight[data-count="30"]').count(), 1)
    await page.locator('.map .marker[data-count="30"]').hover()
    assert.equal(await page.locator('.project-card.highlight').count(), 10)
    await screenshot(page, 'map-catalogue')

    // A marker opens its project, whose own map is zoomed to it.
    await page.goto(`${baseUrl}/#/projects/33`)
    await page.locator('.map[data-loaded="true"]').waitFor()
    const [x, y, w, hgt] = await viewBox(page)
    assert.ok(w! <= 40, `zoomed to the project: viewBox width ${w}`)
    // Spread 33 lies at 134° W, 32° S: the view is centred on it (x = longitude + 180, y = 84 - latitude).
    assert.ok(Math.abs(x! + w! / 2 - 46) < 1 && Math.abs(y! + hgt! / 2 - 116) < 1, `${x} ${y} ${w} ${hgt}`)
    await screenshot(page, 'map-project')

    const phone = await browser.newPage(PHONE)
    await phone.goto(`${baseUrl}/#/projects`)
    await phone.getByLabel('API key', { exact: true }).fill(key)
    await phone.getByRole('button', { name: 'Use this key' }).click()
    await phone.locator('.map[data-loaded="true"]').waitFor()
    for (const m of await markers(phone)) assert.ok(m.width >= 24 && m.height >= 24)
    await screenshot(phone, 'map-phone', false)
    assert.deepEqual(browser.problems, [])
  })

test('map: projects without coordinates are shown by their country, and a legend says which is which (issue 36)',
  async (t) => {
    const { baseUrl, key, browser, page } = await serviceAndPage(t, { records: records() }, DESKTOP)
    await page.addInitScript(`localStorage.setItem('tonne.apiKey', ${JSON.stringify(key)})`)
    await page.goto(`${baseUrl}/#/projects?limit=10`)
    // Peru, the country of the 5 projects without coordinates, is shaded; the 43 others are points.
    await page.locator('.map[data-loaded="true"][data-countries="1"]').waitFor()
    assert.equal(await page.locator('.map path.country-unlocated').count(), 1)
    assert.match(await page.locator('.map figcaption').textContent() ?? '',
      /43 of the 48 matching projects at their coordinates \(points\), 5 by their country \(shaded: no coordinates/)
    assert.deepEqual(await page.locator('.map-legend li').allTextContents(), ['A project at its coordinates',
      '3Nearby projects: select to zoom in', 'A country of projects without coordinates (5)'])
    assert.deepEqual(await axeViolations(page), [])
    assert.deepEqual(browser.problems, [])
  })
