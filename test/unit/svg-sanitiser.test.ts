import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { sanitiseSvg, UnsafeSvgError } from '../../src/media/svg-sanitiser.ts'

// The SVG an import may bring (src/media/svg-sanitiser.ts): the root must be an <svg> in the SVG namespace, and
// CSS may only point inside the file.
const SVG_NS = 'http://www.w3.org/2000/svg'

describe('SVG sanitiser', () => {
  test('a root that is not <svg> in the SVG namespace is refused, either way round', () => {
    for (const text of [`<html xmlns="${SVG_NS}"><rect/></html>`, '<svg xmlns="http://www.w3.org/1999/xhtml"/>']) {
      assert.throws(() => sanitiseSvg(text), (error) => error instanceof UnsafeSvgError &&
        /is not an SVG image \(its root element is <(html|svg)>\)/.test(error.message), text)
    }
    assert.match(sanitiseSvg(`<svg xmlns="${SVG_NS}"><rect width="1"/></svg>`), /^<svg xmlns="[^"]+"><rect/)
    // Parsed as image/svg+xml, a bare <svg> is in the SVG namespace, and is written out with it.
    assert.equal(sanitiseSvg('<svg/>'), `<svg xmlns="${SVG_NS}"/>`)
  })

  test('url(#fragment) after another CSS function is kept; url() to anywhere else is dropped', () => {
    const style = (css: string) => sanitiseSvg(`<svg xmlns="${SVG_NS}"><rect style="${css}"/></svg>`)
    assert.match(style('fill: rgb(1, 2, 3); mask: url(#m)'), /style="fill: rgb\(1, 2, 3\); mask: url\(#m\)"/)
    assert.match(style('fill: rgb(1, 2, 3); mask: url(\'#m\')'), /mask: url\('#m'\)/)
    // A filter list needs no space between its functions.
    assert.match(style('filter: blur(2px)url(#f)'), /style="filter: blur\(2px\)url\(#f\)"/)
    assert.doesNotMatch(style('fill: rgb(1, 2, 3); mask: url(https://evil.example/m)'), /style=/)
    assert.doesNotMatch(style('mask: url(#m) url(https://evil.example/m)'), /style=/)
  })

  test('a presentation attribute with javascript: or data: in any case or spelling is dropped', () => {
    const rect = (attributes: string) => sanitiseSvg(`<svg xmlns="${SVG_NS}"><rect ${attributes}/></svg>`)
    for (const value of ['JavaScript:alert(1)', 'DATA:text/html,x', 'java&#9;script:alert(1)', ' jAvA script:x']) {
      assert.doesNotMatch(rect(`fill="${value}"`), /fill=/, value)
    }
    assert.match(rect('fill="red" stroke="#00f"'), /<rect fill="red" stroke="#00f"\/>/)
  })

  test('a style attribute keeps only safe CSS: no expression(), behavior, escapes or at-rules', () => {
    const style = (css: string) => sanitiseSvg(`<svg xmlns="${SVG_NS}"><rect style="${css}"/></svg>`)
    for (const css of ['width: expression(alert(1))', 'behavior: url(#x)', String.raw`fill: re\64`, '@import x']) {
      assert.doesNotMatch(style(css), /style=/, css)
    }
    assert.match(style('fill: red; opacity: 0.5'), /style="fill: red; opacity: 0.5"/)
  })

  test('namespaces: the SVG and XLink declarations stay, any other goes with its attributes; of xml:, only ' +
    'space and lang', () => {
    const out = sanitiseSvg(`<svg xmlns="${SVG_NS}" xmlns:xlink="http://www.w3.org/1999/xlink" ` +
      'xmlns:ev="http://www.w3.org/2001/xml-events" xml:space="preserve" xml:base="https://evil.example/">' +
      '<rect ev:onclick="alert(1)" xml:lang="en" width="1"/></svg>')
    assert.match(out, /xmlns:xlink="http:\/\/www\.w3\.org\/1999\/xlink"/)
    assert.match(out, /xml:space="preserve"/)
    assert.match(out, /<rect xml:lang="en" width="1"\/>/)
    assert.doesNotMatch(out, /xmlns:ev|onclick|xml:base|evil/)
  })
})
