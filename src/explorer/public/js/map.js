// A world map drawn from the bundled Natural Earth countries (TopoJSON, vendor/countries-110m.json): arcs
// decoded here, equirectangular projection, plain SVG. No tiles, no network beyond this service. Projects are
// HTML links laid over the SVG, clustered by distance on screen, so each target is at least 24 px at any zoom.
import { h } from './dom.js'

const WORLD_URL = '/explorer/vendor/countries-110m.json'
// The world spans longitude -180…180 and latitude 84…-60, where people live (and projects are).
const TOP = 84
const BOTTOM = -60
const WIDTH = 360
const HEIGHT = TOP - BOTTOM
const MAX_ZOOM = 1000
// Markers closer than this on screen (px) share one cluster; a marker is 24 px (WCAG 2.2 target size, 2.5.8).
const CLUSTER_PX = 30

/** @typedef {{ id: number, name: string, latitude: number, longitude: number }} MapPoint */
/** @typedef {{ x: number, y: number, points: MapPoint[] }} Cluster */

/** @type {Promise<any> | undefined} */
let topologyLoad
/** @type {Promise<string> | undefined} */
let world

function loadTopology () {
  topologyLoad ??= fetch(WORLD_URL)
    .then((response) => {
      if (!response.ok) throw new Error(`The map data did not load (HTTP ${response.status}).`)
      return response.json()
    })
    .catch((error) => { topologyLoad = undefined; throw error })
  return topologyLoad
}

/** The land as one SVG path, loaded and decoded once per page. */
export function loadWorld () {
  world ??= loadTopology().then(countryPaths).catch((error) => { world = undefined; throw error })
  return world
}

/**
 * One country's outline and its bounds in map units, by ISO 3166-1 numeric code (Natural Earth's ids);
 * undefined when the 1:110m map does not draw it (small islands).
 * @param {string} numeric
 * @returns {Promise<{ d: string, x: number, y: number, width: number, height: number } | undefined>}
 */
export async function countryOutline (numeric) {
  const topology = await loadTopology()
  const geometry = topology.objects.countries.geometries
    .find((/** @type {any} */ g) => g.id === numeric && g.arcs !== undefined)
  if (geometry === undefined) return undefined
  const arcs = arcDecoder(topology)
  const polygons = geometry.type === 'Polygon' ? [geometry.arcs] : geometry.arcs
  /** @type {number[][]} */
  const outer = []
  const parts = []
  for (const rings of polygons) {
    for (const ring of rings) {
      const points = ringPoints(arcs, ring)
      parts.push(ringPaths(points))
      outer.push(...points.map(project))
    }
  }
  const xs = outer.map(([x = 0]) => x)
  const ys = outer.map(([, y = 0]) => y)
  const [x, y] = [Math.min(...xs), Math.min(...ys)]
  return { d: parts.join(''), x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y }
}

/**
 * @param {number[]} point [longitude, latitude]
 * @returns {[number, number]} map units: x 0…360 from the west, y 0…144 from the top
 */
function project ([longitude = 0, latitude = 0]) {
  return [longitude + 180, TOP - latitude]
}

/**
 * Delta-decoded, de-quantised arcs (TopoJSON spec: "transform" and "arcs"), each decoded when first used, so
 * the work falls into the short tasks of countryPaths.
 * @param {any} topology
 * @returns {(index: number) => number[][]}
 */
function arcDecoder (topology) {
  const [sx, sy] = topology.transform.scale
  const [tx, ty] = topology.transform.translate
  /** @type {Map<number, number[][]>} */
  const decoded = new Map()
  return (index) => {
    let arc = decoded.get(index)
    if (arc === undefined) {
      let x = 0
      let y = 0
      arc = (topology.arcs[index] ?? []).map(([dx = 0, dy = 0]) => {
        x += dx
        y += dy
        return [x * sx + tx, y * sy + ty]
      })
      decoded.set(index, /** @type {number[][]} */ (arc))
    }
    return /** @type {number[][]} */ (arc)
  }
}

/**
 * A ring is a list of arc indexes; a negative index ~i is arc i reversed. Joined arcs share their end point.
 * @param {(index: number) => number[][]} arcs
 * @param {number[]} indexes
 */
function ringPoints (arcs, indexes) {
  /** @type {number[][]} */
  const points = []
  for (const index of indexes) {
    const arc = index < 0 ? [...arcs(~index)].reverse() : arcs(index)
    points.push(...(points.length === 0 ? arc : arc.slice(1)))
  }
  return points
}

/** @param {number[][]} points */
function ringPath (points) {
  // A tenth of a degree is finer than the 1:110m source at any zoom the map is drawn at.
  return `M${points.map((p) => project(p).map((n) => n.toFixed(1)).join(',')).join('L')}Z`
}

/**
 * Rings that cross the antimeridian (Russia, Fiji) are unwrapped into continuous longitudes, then
 * drawn twice, 360° apart; the viewBox clips each copy to its side of the map.
 * @param {number[][]} points
 */
function ringPaths (points) {
  let previous = points[0]?.[0] ?? 0
  let shift = 0
  const unwrapped = points.map(([longitude = 0, latitude = 0]) => {
    if (longitude - previous > 180) shift -= 360
    else if (previous - longitude > 180) shift += 360
    previous = longitude
    return [longitude + shift, latitude]
  })
  const longitudes = unwrapped.map(([longitude = 0]) => longitude)
  const paths = [ringPath(unwrapped)]
  if (Math.min(...longitudes) < -180) paths.push(ringPath(unwrapped.map(([x = 0, y = 0]) => [x + 360, y])))
  if (Math.max(...longitudes) > 180) paths.push(ringPath(unwrapped.map(([x = 0, y = 0]) => [x - 360, y])))
  return paths.join('')
}

/**
 * Every country's rings in one path (one element to draw). The work is split into short tasks, so the page
 * stays responsive on a slow phone while the map is decoded.
 * @param {any} topology
 */
async function countryPaths (topology) {
  const arcs = arcDecoder(topology)
  const geometries = topology.objects.countries.geometries
    .filter((/** @type {any} */ geometry) => geometry.arcs !== undefined && geometry.properties?.name !== 'Antarctica')
  /** @type {string[]} */
  const parts = []
  let started = performance.now()
  for (const geometry of geometries) {
    const polygons = geometry.type === 'Polygon' ? [geometry.arcs] : geometry.arcs
    for (const rings of polygons) for (const ring of rings) parts.push(ringPaths(ringPoints(arcs, ring)))
    // Under 50 ms even on a CPU four times slower (Lighthouse's phone): no long task.
    if (performance.now() - started > 8) {
      await new Promise((resolve) => setTimeout(resolve, 0))
      started = performance.now()
    }
  }
  return parts.join('')
}

/**
 * The larger of a group's spans in longitude and latitude (degrees).
 * @param {MapPoint[]} points
 */
function spanOf (points) {
  const longitudes = points.map((p) => p.longitude)
  const latitudes = points.map((p) => p.latitude)
  return Math.max(Math.max(...longitudes) - Math.min(...longitudes), Math.max(...latitudes) - Math.min(...latitudes))
}

/**
 * Greedy clustering on screen: each point joins the first cluster within CLUSTER_PX, else starts one.
 * @param {MapPoint[]} points
 * @param {(p: MapPoint) => [number, number]} toScreen
 * @param {number} width
 * @param {number} height
 * @returns {Cluster[]}
 */
function cluster (points, toScreen, width, height) {
  /** @type {Cluster[]} */
  const clusters = []
  for (const point of points) {
    const [x, y] = toScreen(point)
    if (x < -12 || y < -12 || x > width + 12 || y > height + 12) continue
    const near = clusters.find((c) => Math.hypot(c.x - x, c.y - y) < CLUSTER_PX)
    if (near === undefined) clusters.push({ x, y, points: [point] })
    else near.points.push(point)
  }
  return clusters
}

/**
 * @typedef {object} MapOptions
 * @property {string} caption what the map shows, in words (also its accessible name)
 * @property {(point: MapPoint) => string} href where a single project's marker leads
 * @property {(ids: number[]) => void} [onHover] the projects under the pointer (empty when it leaves)
 */

/**
 * An interactive world map: pan by dragging, zoom with the wheel or the buttons, clusters that open
 * by zooming into them. The list beside it carries the same links for keyboard and screen-reader users.
 * @param {MapOptions} options
 */
export function interactiveMap ({ caption, href, onHover }) {
  let zoom = 1
  let cx = WIDTH / 2
  let cy = HEIGHT / 2
  /** @type {MapPoint[]} */
  let points = []
  /** @type {Set<number>} */
  let highlighted = new Set()
  let landReady = false
  let pointsReady = false

  const titleId = `map-title-${Math.random().toString(36).slice(2)}`
  const svg = h('svg', {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    role: 'img',
    'aria-labelledby': titleId,
    preserveAspectRatio: 'xMidYMid slice',
    class: 'world'
  }, h('title', { id: titleId }, caption))
  const land = h('g', { class: 'land' })
  // Countries of projects without coordinates, above the land and below the points (HTML over the drawing).
  const unlocatedLayer = h('g', { class: 'unlocated' })
  svg.append(land, unlocatedLayer)
  const markers = h('div', { class: 'markers' })
  // Focusable, so the keyboard can pan (arrow keys) and zoom (+ and −) as the mouse does.
  const frame = h('div', {
    class: 'map-frame',
    tabindex: '0',
    role: 'group',
    'aria-label': 'Map: arrow keys move it, plus and minus zoom'
  }, svg, markers)
  const controls = h('div', { class: 'map-controls' },
    h('button', { type: 'button', class: 'secondary', 'aria-label': 'Zoom in', onclick: () => zoomBy(2) }, '+'),
    h('button', { type: 'button', class: 'secondary', 'aria-label': 'Zoom out', onclick: () => zoomBy(0.5) }, '−'),
    h('button', { type: 'button', class: 'secondary', onclick: () => setView(1, WIDTH / 2, HEIGHT / 2) },
      'Show the whole world'))
  const captionElement = h('figcaption', {}, caption)
  const groupList = h('div', { class: 'map-group' })
  const figure = h('figure', { class: 'map' }, frame, controls, captionElement, groupList)

  const viewWidth = () => WIDTH / zoom
  const viewHeight = () => HEIGHT / zoom

  /**
   * @param {number} nextZoom
   * @param {number} x
   * @param {number} y
   */
  function setView (nextZoom, x, y) {
    zoom = Math.min(MAX_ZOOM, Math.max(1, nextZoom))
    // Keep the view inside the world.
    cx = Math.min(WIDTH - viewWidth() / 2, Math.max(viewWidth() / 2, x))
    cy = Math.min(HEIGHT - viewHeight() / 2, Math.max(viewHeight() / 2, y))
    const box = [cx - viewWidth() / 2, cy - viewHeight() / 2, viewWidth(), viewHeight()]
    svg.setAttribute('viewBox', box.map((n) => Number(n.toFixed(4))).join(' '))
    figure.dataset['zoom'] = String(zoom)
    drawMarkers()
  }

  /** @param {number} factor */
  function zoomBy (factor) {
    setView(zoom * factor, cx, cy)
  }

  /** Screen position (px within the frame) of a point, for the frame's current size. */
  function screenMapper () {
    const width = frame.clientWidth
    const height = frame.clientHeight
    // "slice": the view fills the frame; the scale is the larger of the two ratios.
    const scale = Math.max(width / viewWidth(), height / viewHeight())
    /** @type {(p: MapPoint) => [number, number]} */
    const toScreen = (p) => {
      const [x, y] = project([p.longitude, p.latitude])
      return [(x - cx) * scale + width / 2, (y - cy) * scale + height / 2]
    }
    return { width, height, scale, toScreen }
  }

  function drawMarkers () {
    const { width, height, toScreen } = screenMapper()
    if (width === 0) return
    const clusters = cluster(points, toScreen, width, height)
    markers.replaceChildren(...clusters.map((c) => marker(c)))
    markHighlighted()
  }

  /** @param {Cluster} c */
  function marker (c) {
    const ids = c.points.map((p) => p.id)
    const single = c.points.length === 1 ? c.points[0] : undefined
    // Projects at one place (a city's coordinates, say) never split by zooming: their marker lists them instead.
    const together = single === undefined && (zoom >= MAX_ZOOM || spanOf(c.points) < 1e-3)
    const action = together ? 'list them' : 'zoom in'
    const element = single !== undefined
      ? h('a', { class: 'marker', href: href(single), 'aria-label': single.name, title: single.name })
      : h('button', {
        type: 'button',
        class: 'marker cluster',
        'aria-label': `${c.points.length} projects here: ${action}`,
        title: `${c.points.length} projects: ${action}`
      }, String(c.points.length))
    element.dataset['count'] = String(c.points.length)
    element.dataset['ids'] = ids.join(' ')
    element.style.left = `${c.x.toFixed(1)}px`
    element.style.top = `${c.y.toFixed(1)}px`
    if (single === undefined) {
      element.addEventListener('click', () => together ? listGroup(c.points) : zoomInto(c.points))
    }
    element.addEventListener('mouseenter', () => onHover?.(ids))
    element.addEventListener('mouseleave', () => onHover?.([]))
    element.addEventListener('focus', () => onHover?.(ids))
    element.addEventListener('blur', () => onHover?.([]))
    return element
  }

  /**
   * Zooms so the cluster's projects fill about half the view (at least four times closer).
   * @param {MapPoint[]} group
   */
  function zoomInto (group) {
    const xs = group.map((p) => p.longitude + 180)
    const ys = group.map((p) => TOP - p.latitude)
    const spanX = Math.max(...xs) - Math.min(...xs)
    const spanY = Math.max(...ys) - Math.min(...ys)
    const fit = Math.min(WIDTH / Math.max(spanX * 2, 1e-6), HEIGHT / Math.max(spanY * 2, 1e-6))
    setView(Math.max(zoom * 4, fit), (Math.max(...xs) + Math.min(...xs)) / 2, (Math.max(...ys) + Math.min(...ys)) / 2)
  }

  /**
   * Lists the projects of one place under the map, as links, and moves focus there.
   * @param {MapPoint[]} group
   */
  function listGroup (group) {
    const heading = h('p', { class: 'map-group-heading', tabindex: '-1' }, `${group.length} projects at this place:`)
    groupList.replaceChildren(heading,
      h('ul', {}, group.map((p) => h('li', {}, h('a', { href: href(p) }, p.name)))),
      h('button', { type: 'button', class: 'secondary', onclick: () => groupList.replaceChildren() }, 'Close the list'))
    heading.focus()
  }

  function markHighlighted () {
    for (const element of markers.children) {
      const ids = (/** @type {HTMLElement} */ (element).dataset['ids'] ?? '').split(' ').map(Number)
      element.classList.toggle('highlight', ids.some((id) => highlighted.has(id)))
    }
  }

  function ready () {
    if (landReady && pointsReady) figure.dataset['loaded'] = 'true'
  }

  // Dragging pans; a press that does not move is left to the marker under it.
  /** @type {{ x: number, y: number, cx: number, cy: number, moved: boolean } | undefined} */
  let drag
  // The click that ends a drag must not open a marker; the next press starts afresh (a drag may end without one).
  let dragged = false
  frame.addEventListener('click', (click) => {
    if (!dragged) return
    click.preventDefault()
    click.stopPropagation()
  }, { capture: true })
  frame.addEventListener('pointerdown', (event) => {
    dragged = false
    if (event.button !== 0) return
    drag = { x: event.clientX, y: event.clientY, cx, cy, moved: false }
  })
  frame.addEventListener('pointermove', (event) => {
    if (drag === undefined) return
    const dx = event.clientX - drag.x
    const dy = event.clientY - drag.y
    if (!drag.moved && Math.hypot(dx, dy) < 4) return
    if (!drag.moved) frame.setPointerCapture(event.pointerId)
    drag.moved = true
    const { scale } = screenMapper()
    setView(zoom, drag.cx - dx / scale, drag.cy - dy / scale)
  })
  const endDrag = (/** @type {PointerEvent} */ event) => {
    if (drag?.moved) {
      dragged = true
      if (frame.hasPointerCapture(event.pointerId)) frame.releasePointerCapture(event.pointerId)
    }
    drag = undefined
  }
  frame.addEventListener('pointerup', endDrag)
  frame.addEventListener('pointercancel', endDrag)
  frame.addEventListener('wheel', (event) => {
    event.preventDefault()
    zoomBy(event.deltaY < 0 ? 1.5 : 1 / 1.5)
  }, { passive: false })
  frame.addEventListener('keydown', (event) => {
    if (event.target !== frame) return
    /** @type {Record<string, [number, number]>} */
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }
    const move = moves[event.key]
    if (move !== undefined) setView(zoom, cx + (move[0] * viewWidth()) / 4, cy + (move[1] * viewHeight()) / 4)
    else if (event.key === '+' || event.key === '=') zoomBy(2)
    else if (event.key === '-') zoomBy(0.5)
    else return
    event.preventDefault()
  })
  new ResizeObserver(() => drawMarkers()).observe(frame)

  loadWorld().then((d) => {
    land.append(h('path', { class: 'country', d }))
    landReady = true
    ready()
  }, (error) => { figure.dataset['loaded'] = 'failed'; console.error(error) })

  return {
    element: figure,
    /**
     * The projects to draw, and what the caption says about them.
     * @param {MapPoint[]} next
     * @param {string} [text]
     */
    setPoints (next, text) {
      points = next
      figure.dataset['total'] = String(points.length)
      if (text !== undefined) {
        captionElement.textContent = text
        const title = svg.querySelector('title')
        if (title !== null) title.textContent = text
      }
      drawMarkers()
      pointsReady = true
      ready()
    },
    /**
     * Shades countries (projects there have no coordinates), leaving the view as it is; resolves how many the
     * 1:110m map could draw (small islands it cannot).
     * @param {string[]} numerics ISO 3166-1 numeric codes
     */
    async showCountries (numerics) {
      /** @type {string[]} */
      const drawn = []
      let started = performance.now()
      // One country at a time, in short tasks (as countryPaths): a hundred outlines at once would block a phone.
      for (const numeric of numerics) {
        const outline = await countryOutline(numeric)
        if (outline !== undefined) drawn.push(outline.d)
        if (performance.now() - started > 8) {
          await new Promise((resolve) => setTimeout(resolve, 0))
          started = performance.now()
        }
      }
      unlocatedLayer.replaceChildren(...drawn.map((d) => h('path', { class: 'country-unlocated', d })))
      figure.dataset['countries'] = String(drawn.length)
      return drawn.length
    },
    /** @param {number[]} ids the projects to mark (hovered in the list) */
    highlight (ids) {
      highlighted = new Set(ids)
      markHighlighted()
    },
    /**
     * Outlines a country (a project with no coordinates of its own) and frames it; resolves false when the map
     * cannot draw it.
     * @param {string} numeric ISO 3166-1 numeric code
     */
    async showCountry (numeric) {
      const outline = await countryOutline(numeric)
      if (outline === undefined) return false
      // Above the land, which may be drawn after it.
      svg.append(h('path', { class: 'country-highlight', d: outline.d }))
      // Countries across the antimeridian (Russia, Fiji) span the map: frame the whole width then.
      const level = Math.max(1, Math.min(MAX_ZOOM, 0.7 * Math.min(WIDTH / Math.max(outline.width, 1),
        HEIGHT / Math.max(outline.height, 1))))
      setView(level, outline.x + outline.width / 2, outline.y + outline.height / 2)
      figure.dataset['country'] = numeric
      return true
    },
    /**
     * Centres on a point, closer by `level`.
     * @param {number} longitude
     * @param {number} latitude
     * @param {number} level
     */
    focus (longitude, latitude, level) {
      const [x, y] = project([longitude, latitude])
      setView(level, x, y)
    }
  }
}
