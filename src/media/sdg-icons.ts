/**
 * Draws an SDG icon: the goal's number and short name on the goal's colour. Numbers, names and
 * colours are facts; the UN's own artwork is not ours to copy, so these are our own drawings.
 */
export function drawSdgIcon (number: number, name: string, colour: string): string {
  const lines = wrap(name.toUpperCase(), 13).slice(0, 4)
  const text = lines.map((line, i) =>
    `<text x="8" y="${56 + i * 11}" font-size="10" font-weight="700">${escapeXml(line)}</text>`).join('')
  return '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100" ' +
    `role="img" aria-label="Sustainable Development Goal ${number}: ${escapeXml(name)}">` +
    `<rect width="100" height="100" fill="${colour}"/>` +
    '<g fill="#FFFFFF" font-family="Arial, Helvetica, sans-serif">' +
    `<text x="8" y="38" font-size="32" font-weight="700">${number}</text>${text}</g></svg>`
}

function wrap (text: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else {
      line = line === '' ? word : `${line} ${word}`
    }
  }
  if (line !== '') lines.push(line)
  return lines
}

function escapeXml (text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
