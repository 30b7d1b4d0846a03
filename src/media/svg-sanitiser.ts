import { DOMParser, XMLSerializer, type Element, type Node } from '@xmldom/xmldom'

/**
 * SVG files come from import files, and an SVG is a document that can run script, load other
 * documents and restyle itself. This keeps only what draws: an allow-list of SVG elements and
 * presentation attributes, references only to fragments of the same file (`#id`) or inline raster
 * images, and CSS without escapes, at-rules or functions beyond colours, maths and transforms.
 * Everything else is dropped; a file that is not well-formed XML, has a DOCTYPE (entities), or is
 * not an SVG document is refused.
 */

const SVG_NS = 'http://www.w3.org/2000/svg'
const XLINK_NS = 'http://www.w3.org/1999/xlink'
const XML_NS = 'http://www.w3.org/XML/1998/namespace'
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/'

/** An SVG that cannot be made safe (or is not an SVG at all). */
export class UnsafeSvgError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'UnsafeSvgError'
  }
}

const FILTER_PRIMITIVES = ['feBlend', 'feColorMatrix', 'feComponentTransfer', 'feComposite', 'feConvolveMatrix',
  'feDiffuseLighting', 'feDisplacementMap', 'feDistantLight', 'feDropShadow', 'feFlood', 'feFuncA', 'feFuncB',
  'feFuncG', 'feFuncR', 'feGaussianBlur', 'feMerge', 'feMergeNode', 'feMorphology', 'feOffset', 'fePointLight',
  'feSpecularLighting', 'feSpotLight', 'feTile', 'feTurbulence']

// No script, foreignObject, animation (animate/set can rewrite href to javascript:), feImage,
// a (kept as a plain group), or anything that loads another document.
const ELEMENTS = new Set(['svg', 'g', 'defs', 'title', 'desc', 'symbol', 'use', 'switch', 'path', 'rect', 'circle',
  'ellipse', 'line', 'polyline', 'polygon', 'text', 'tspan', 'textPath', 'linearGradient', 'radialGradient', 'stop',
  'pattern', 'clipPath', 'mask', 'marker', 'filter', 'image', 'style', ...FILTER_PRIMITIVES])

const ATTRIBUTES = new Set([
  'id', 'class', 'style', 'transform', 'viewBox', 'preserveAspectRatio', 'width', 'height', 'x', 'y', 'x1', 'y1', 'x2',
  'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'fx', 'fy', 'fr', 'd', 'points', 'pathLength', 'version', 'baseProfile',
  'fill', 'fill-opacity', 'fill-rule', 'stroke', 'stroke-width', 'stroke-linecap', 'stroke-linejoin',
  'stroke-miterlimit', 'stroke-dasharray', 'stroke-dashoffset', 'stroke-opacity', 'opacity', 'color', 'display',
  'visibility', 'overflow', 'clip-path', 'clip-rule', 'mask', 'filter', 'marker-start', 'marker-mid', 'marker-end',
  'markerWidth', 'markerHeight', 'markerUnits', 'refX', 'refY', 'orient', 'paint-order', 'vector-effect',
  'mix-blend-mode', 'isolation', 'shape-rendering', 'text-rendering', 'image-rendering', 'color-interpolation',
  'color-interpolation-filters', 'enable-background',
  'font', 'font-family', 'font-size', 'font-size-adjust', 'font-weight', 'font-style', 'font-variant', 'font-stretch',
  'text-anchor', 'dominant-baseline', 'alignment-baseline', 'baseline-shift', 'letter-spacing', 'word-spacing',
  'text-decoration', 'writing-mode', 'direction', 'unicode-bidi', 'dx', 'dy', 'rotate', 'textLength', 'lengthAdjust',
  'startOffset', 'method', 'spacing', 'side',
  'offset', 'stop-color', 'stop-opacity', 'gradientUnits', 'gradientTransform', 'spreadMethod', 'patternUnits',
  'patternContentUnits', 'patternTransform', 'clipPathUnits', 'maskUnits', 'maskContentUnits', 'mask-type',
  'filterUnits', 'primitiveUnits', 'in', 'in2', 'result', 'stdDeviation', 'mode', 'operator', 'k1', 'k2', 'k3', 'k4',
  'values', 'type', 'tableValues', 'slope', 'intercept', 'amplitude', 'exponent', 'baseFrequency', 'numOctaves',
  'seed', 'stitchTiles', 'scale', 'xChannelSelector', 'yChannelSelector', 'flood-color', 'flood-opacity',
  'lighting-color', 'surfaceScale', 'diffuseConstant', 'specularConstant', 'specularExponent', 'kernelMatrix',
  'kernelUnitLength', 'order', 'divisor', 'bias', 'targetX', 'targetY', 'edgeMode', 'preserveAlpha', 'radius',
  'azimuth', 'elevation', 'pointsAtX', 'pointsAtY', 'pointsAtZ', 'limitingConeAngle',
  'systemLanguage', 'role', 'aria-label', 'aria-hidden', 'aria-labelledby', 'aria-describedby', 'lang', 'tabindex'
])

/** Elements that mean nothing without their reference: dropped whole when the reference is not allowed. */
const NEEDS_REFERENCE = new Set(['use', 'image'])
const FRAGMENT = /^#[^\s#()'"]+$/
const INLINE_RASTER = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]+$/
// CSS functions that draw and compute, never fetch: colours, maths, transforms, filters, selectors.
const CSS_FUNCTIONS = new Set(['url', 'rgb', 'rgba', 'hsl', 'hsla', 'hwb', 'lab', 'lch', 'oklab', 'oklch', 'color',
  'calc', 'min', 'max', 'clamp', 'var', 'translate', 'translatex', 'translatey', 'rotate', 'scale', 'scalex', 'scaley',
  'skew', 'skewx', 'skewy', 'matrix', 'blur', 'drop-shadow', 'brightness', 'contrast', 'grayscale', 'saturate',
  'not', 'is', 'where', 'nth-child', 'nth-last-child', 'nth-of-type', 'nth-last-of-type'])

/** CSS that can only point inside the file: no escapes (they can spell anything), no at-rules, known functions only. */
function isSafeCss (css: string): boolean {
  if (/[\\@<]/.test(css) || /javascript:|expression|behavior|binding/i.test(css)) return false
  for (const match of css.matchAll(/([A-Za-z-]*)\s*\(/g)) {
    const name = match[1]!.toLowerCase()
    if (!CSS_FUNCTIONS.has(name)) return false
    if (name === 'url') {
      const end = css.indexOf(')', match.index + match[0].length)
      const inside = css.slice(match.index + match[0].length, end === -1 ? undefined : end)
      const target = inside.trim().replace(/^(['"])(.*)\1$/, '$2')
      if (!FRAGMENT.test(target)) return false
    }
  }
  return true
}

function isSafeValue (value: string): boolean {
  // url(...) in presentation attributes (fill, clip-path, filter...) may only name a fragment.
  const compact = value.replace(/[\s\p{Cc}]/gu, '').toLowerCase()
  if (compact.includes('javascript:') || compact.includes('data:')) return false
  return !/url\s*\(/i.test(value) || isSafeCss(value)
}

function referenceAllowed (element: Element, value: string): boolean {
  const trimmed = value.trim()
  return FRAGMENT.test(trimmed) || (element.localName === 'image' && INLINE_RASTER.test(trimmed))
}

/** Keeps an allowed attribute, drops the rest; returns false when the element must go (a bad reference). */
function cleanAttributes (element: Element): boolean {
  const elementName = element.localName ?? ''
  for (const attribute of [...element.attributes]) {
    const { namespaceURI, localName, name, value } = attribute
    let keep: boolean
    if (namespaceURI === XMLNS_NS) {
      keep = name === 'xmlns' ? value === SVG_NS : value === XLINK_NS
    } else if (localName === 'href' && (namespaceURI === null || namespaceURI === XLINK_NS)) {
      keep = referenceAllowed(element, value)
      if (!keep && NEEDS_REFERENCE.has(elementName)) return false
    } else if (namespaceURI === XML_NS) {
      keep = localName === 'space' || localName === 'lang'
    } else if (namespaceURI === null && localName === 'style') {
      keep = isSafeCss(value)
    } else {
      keep = namespaceURI === null && ATTRIBUTES.has(localName ?? '') && isSafeValue(value)
    }
    if (!keep) element.removeAttributeNode(attribute)
  }
  // A use or image without any reference draws nothing.
  return !NEEDS_REFERENCE.has(elementName) || element.hasAttribute('href') || element.hasAttributeNS(XLINK_NS, 'href')
}

function clean (node: Node): void {
  for (const child of [...node.childNodes]) {
    if (child.nodeType === child.TEXT_NODE || child.nodeType === child.CDATA_SECTION_NODE) continue
    if (child.nodeType !== child.ELEMENT_NODE) {
      node.removeChild(child) // comments, processing instructions
      continue
    }
    let element = child as Element
    if (element.namespaceURI === SVG_NS && element.localName === 'a') {
      // A link becomes a plain group: its drawing stays, nothing to follow.
      const group = element.ownerDocument!.createElementNS(SVG_NS, 'g')
      for (const attribute of [...element.attributes]) {
        if (attribute.localName === 'href' || attribute.localName === 'target') continue
        group.setAttributeNS(attribute.namespaceURI, attribute.name, attribute.value)
      }
      while (element.firstChild !== null) group.appendChild(element.firstChild)
      node.replaceChild(group, element)
      element = group
    }
    const allowed = element.namespaceURI === SVG_NS && ELEMENTS.has(element.localName ?? '') &&
      (element.localName !== 'style' || isSafeCss(element.textContent ?? ''))
    if (!allowed || !cleanAttributes(element)) {
      node.removeChild(element)
      continue
    }
    clean(element)
  }
}

/** The sanitised SVG document (UTF-8 text), or an UnsafeSvgError saying why the file is refused. */
export function sanitiseSvg (text: string): string {
  // Entity declarations can expand without bound or pull in other files; an SVG never needs them.
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) {
    throw new UnsafeSvgError('has a DOCTYPE; SVG files with DOCTYPE or entity declarations are not accepted')
  }
  let document
  let reason: string | undefined
  try {
    document = new DOMParser({
      onError: (level, message) => {
        if (level === 'warning') return
        reason ??= message
        throw new UnsafeSvgError(message)
      }
    }).parseFromString(text, 'image/svg+xml')
  } catch (error) {
    throw new UnsafeSvgError(`is not well-formed XML (${(reason ?? (error as Error).message).split('\n')[0]})`)
  }
  const root = document.documentElement
  if (root === null || root.namespaceURI !== SVG_NS || root.localName !== 'svg') {
    const found = root === null ? 'missing' : `<${root.nodeName}>`
    throw new UnsafeSvgError(`is not an SVG image (its root element is ${found})`)
  }
  if (!cleanAttributes(root)) throw new UnsafeSvgError('is not an SVG image')
  clean(root)
  return new XMLSerializer().serializeToString(root)
}
