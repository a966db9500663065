// A plain SMTP server for the browser tests: the daemon's jobs, run with
// --smtp.host 127.0.0.1 --smtp.port PORT --smtp.tls none, deliver to it
// through a real SMTP exchange, and the test reads what arrived. It
// accepts every message, keeps its envelope and data, and decodes the
// subject (RFC 2047, as the daemon's mailer encodes non-ASCII subjects).
import { type Server, type Socket, createServer } from 'node:net'

export interface Received {
  from: string
  to: string[]
  data: string
  subject: string
}

export interface SmtpSink {
  port: number
  messages: Received[]
  close(): Promise<void>
}

/** Decodes the encoded words of a header value ("=?UTF-8?q?…?=" or "=?UTF-8?b?…?="). */
export function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([qb])\?([^?]*)\?=/gi, (_, kind: string, text: string) => {
      if (kind.toLowerCase() === 'b') return Buffer.from(text, 'base64').toString('utf8')
      const bytes: number[] = []
      for (let i = 0; i < text.length; i++) {
        if (text[i] === '_') bytes.push(0x20)
        else if (text[i] === '=' && /^[0-9A-F]{2}$/i.test(text.slice(i + 1, i + 3))) {
          bytes.push(parseInt(text.slice(i + 1, i + 3), 16))
          i += 2
        } else bytes.push(text.charCodeAt(i))
      }
      return Buffer.from(bytes).toString('utf8')
    })
}

/** The subject of a raw message, its folded lines joined and decoded. */
function subjectOf(data: string): string {
  const headers = data.split(/\r\n\r\n/)[0].replace(/\r\n[ \t]+/g, ' ')
  const line = headers.split('\r\n').find((l) => /^subject:/i.test(l))
  return line ? decodeHeader(line.slice('subject:'.length).trim()) : ''
}

function session(socket: Socket, messages: Received[]) {
  let buffer = ''
  let inData = false
  let from = ''
  let to: string[] = []
  let data: string[] = []
  const reply = (line: string) => socket.write(`${line}\r\n`)
  reply('220 e2e-smtp ESMTP')
  socket.on('data', (chunk) => {
    buffer += chunk.toString('utf8')
    let end: number
    while ((end = buffer.indexOf('\r\n')) >= 0) {
      const line = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      if (inData) {
        if (line === '.') {
          inData = false
          const raw = data.join('\r\n')
          messages.push({ from, to, data: raw, subject: subjectOf(raw) })
          from = ''
          to = []
          data = []
          reply('250 2.0.0 queued')
        } else data.push(line.startsWith('..') ? line.slice(1) : line)
        continue
      }
      const verb = line.slice(0, 4).toUpperCase()
      if (verb === 'EHLO') {
        socket.write('250-e2e-smtp\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n')
      } else if (verb === 'HELO') reply('250 e2e-smtp')
      else if (verb === 'MAIL') {
        from = /<([^>]*)>/.exec(line)?.[1] ?? ''
        reply('250 2.1.0 ok')
      } else if (verb === 'RCPT') {
        to.push(/<([^>]*)>/.exec(line)?.[1] ?? '')
        reply('250 2.1.5 ok')
      } else if (verb === 'DATA') {
        inData = true
        reply('354 end with <CRLF>.<CRLF>')
      } else if (verb === 'RSET') {
        from = ''
        to = []
        reply('250 ok')
      } else if (verb === 'NOOP') reply('250 ok')
      else if (verb === 'QUIT') {
        reply('221 bye')
        socket.end()
      } else {
        // Any other verb (VRFY, AUTH…) gets SMTP's standard refusal: the daemon never sends one.
        reply('502 5.5.2 not implemented')
      }
    }
  })
  socket.on('error', () => socket.destroy())
}

/** Starts a sink on a free port of 127.0.0.1. */
export function startSmtp(): Promise<SmtpSink> {
  const messages: Received[] = []
  const server: Server = createServer((socket) => session(socket, messages))
  return new Promise((ok, fail) => {
    server.on('error', fail)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      if (typeof address !== 'object' || !address) return fail(new Error('no port'))
      ok({
        port: address.port,
        messages,
        close: () => new Promise<void>((done) => server.close(() => done())),
      })
    })
  })
}
