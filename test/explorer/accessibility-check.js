// Evaluated in the page by accessibilityProblems() (test/explorer/browser.ts); its value is the list of problems.
(() => {
  const problems = []
  const visible = (element) => element.getClientRects().length > 0 && getComputedStyle(element).visibility !== 'hidden'
  for (const control of document.querySelectorAll('input, select, textarea')) {
    const labelled = control.labels?.length > 0 || control.hasAttribute('aria-label') ||
      control.hasAttribute('aria-labelledby')
    if (!labelled && visible(control)) problems.push(`no label: ${control.outerHTML.slice(0, 80)}`)
  }
  for (const image of document.querySelectorAll('img')) {
    if (!image.hasAttribute('alt')) problems.push(`no alt text: ${image.outerHTML.slice(0, 80)}`)
  }
  for (const control of document.querySelectorAll('button, a[href]')) {
    if (visible(control) && control.textContent.trim() === '' && !control.hasAttribute('aria-label')) {
      problems.push(`no name: ${control.outerHTML.slice(0, 80)}`)
    }
  }
  const rgba = (color) => (color.match(/[\d.]+/g) ?? []).map(Number)
  const luminance = ([r, g, b]) => {
    const [lr, lg, lb] = [r, g, b].map((c) => {
      const s = c / 255
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
    })
    return 0.2126 * lr + 0.7152 * lg + 0.0722 * lb
  }
  const background = (element) => {
    for (let e = element; e !== null; e = e.parentElement) {
      const color = rgba(getComputedStyle(e).backgroundColor)
      if (color.length === 3 || color[3] > 0.9) return color
    }
    return [255, 255, 255]
  }
  // WCAG 2.2 AA, 1.4.3: 4.5:1 for text, 3:1 for large text (24 px, or 18.66 px bold).
  for (const element of document.querySelectorAll('body *')) {
    const text = [...element.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE)
      .map((node) => node.textContent).join('').trim()
    if (text === '' || !visible(element)) continue
    if (element.closest('.visually-hidden, svg, noscript, option') !== null) continue
    const style = getComputedStyle(element)
    const a = luminance(rgba(style.color))
    const b = luminance(background(element))
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)
    const size = parseFloat(style.fontSize)
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700)
    if (ratio < (large ? 3 : 4.5)) problems.push(`contrast ${ratio.toFixed(2)}:1 for "${text.slice(0, 40)}"`)
  }
  return problems
})()
