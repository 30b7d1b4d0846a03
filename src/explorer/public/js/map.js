// A world map drawn from the bundled Natural Earth countries (TopoJSON, vendor/countries-110m.json):
// arcs decoded here, equirectangular projection, plain SVG. No tiles, no network beyond this service.
import { h } from './dom.js'

const WORLD_URL = '/explorer/vendor/countries-110m.json'
// The viewBox spans longitude -180…180 and latitude 84…-60, where people live (and projects are).
const TOP = 84
const BOTTOM = -60

let world

/** Each country as { name, d } (an SVG path), loaded and decoded once per page. */
export function loadWorld () {
  world ??= fetch(WORLD_URL)
    .then((response) => {
      if (!response.ok) throw new Error(`The map data did not load (HTTP ${response.status}).`)
      return response.json()
    })
    .then(countryPaths)
  return world
}

function project ([longitude, latitude]) {
  return [longitude + 180, TOP - latitude]
}

/** Delta-decoded, de-quantised arcs (TopoJSON spec: "transform" and "arcs"). */
function decodeArcs (topology) {
  const [sx, sy] = topology.transform.scale
  const [tx, ty] = topology.transform.translate
  return topology.arcs.map((arc) => {
    let x = 0
    let y = 0
    return arc.map(([dx, dy]) => {
      x += dx
      y += dy
      return [x * sx + tx, y * sy + ty]
    })
  })
}

/** A ring is a list of arc indexes; a negative index ~i is arc i reversed. Joined arcs share their end point. */
function ringPoints (arcs, indexes) {
  const points = []
  for (const index of indexes) {
    const arc = index < 0 ? [...arcs[~index]].reverse() : arcs[index]
    points.push(...(points.length === 0 ? arc : arc.slice(1)))
  }
  return points
}

function ringPath (points) {
  return `M${points.map((p) => project(p).map((n) => n.toFixed(2)).join(',')).join('L')}Z`
}

/**
 * Rings that cross the antimeridian (Russia, Fiji) are unwrapped into continuous longitudes, then
 * drawn twice, 360° apart; the viewBox clips each copy to its side of the map.
 */
function ringPaths (points) {
  let previous = points[0][0]
  let shift = 0
  const unwrapped = points.map(([longitude, latitude]) => {
    if (longitude - previous > 180) shift -= 360
    else if (previous - longitude > 180) shift += 360
    previous = longitude
    return [longitude + shift, latitude]
  })
  const longitudes = unwrapped.map(([longitude]) => longitude)
  const paths = [ringPath(unwrapped)]
  if (Math.min(...longitudes) < -180) paths.push(ringPath(unwrapped.map(([x, y]) => [x + 360, y])))
  if (Math.max(...longitudes) > 180) paths.push(ringPath(unwrapped.map(([x, y]) => [x - 360, y])))
  return paths.join('')
}

function countryPaths (topology) {
  const arcs = decodeArcs(topology)
  return topology.objects.countries.geometries
    .filter((geometry) => geometry.arcs !== undefined && geometry.properties?.name !== 'Antarctica')
    .map((geometry) => {
      const polygons = geometry.type === 'Polygon' ? [geometry.arcs] : geometry.arcs
      const d = polygons.flatMap((rings) => rings.map((ring) => ringPaths(ringPoints(arcs, ring)))).join('')
      return { name: geometry.properties?.name ?? '', d }
    })
}

/**
 * A figure with the world and one dot per located item: items are { id, name, latitude, longitude, href }.
 * The SVG is one image for assistive technology; the list beside it carries the same links.
 */
export function worldMap (items, caption) {
  const located = items.filter((item) => Number.isFinite(item.latitude) && Number.isFinite(item.longitude))
  const titleId = `map-title-${Math.random().toString(36).slice(2)}`
  const svg = h('svg', { overflow: 'hidden', viewBox: `0 0 360 ${TOP - BOTTOM}`, role: 'img', 'aria-labelledby': titleId, class: 'world', 'data-points': located.length },
    h('title', { id: titleId }, caption))
  const land = h('g', { class: 'land' })
  svg.append(land)
  loadWorld().then((countries) => {
    for (const country of countries) land.append(h('path', { class: 'country', d: country.d }, h('title', {}, country.name)))
    svg.dataset.loaded = 'true'
  }, (error) => { svg.dataset.loaded = 'failed'; console.error(error) })
  const points = h('g', { class: 'points' })
  for (const item of located) {
    const [x, y] = project([item.longitude, item.latitude])
    // Clicking a dot opens the project (a mouse shortcut; keyboard users have the list's links).
    const open = () => { location.hash = item.href }
    points.append(h('circle', { class: 'point', cx: x.toFixed(2), cy: y.toFixed(2), r: 2.2, 'data-id': item.id, onclick: open }, h('title', {}, item.name)))
  }
  svg.append(points)
  return h('figure', { class: 'map' }, svg, h('figcaption', {}, caption))
}
