// Checks answers against the OpenAPI document with ajv, a JSON Schema
// validator independent of the daemon's (huma): the document's schemas are
// JSON Schema 2020-12 (OpenAPI 3.1), null written as a type ("null" in
// `type`, or an `anyOf` alternative), plus OpenAPI's numeric formats.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'

/** The parts of an OpenAPI 3.1 document this check reads. */
export interface Document {
  openapi: string
  paths: Record<string, Record<string, Operation>>
  components: { schemas: Record<string, object> }
}

interface Operation {
  operationId: string
  responses: Record<string, Response>
}

interface Response {
  content?: Record<string, { schema?: object }>
}

/** An answer as read by a client. */
export interface Answer {
  method: string
  /** The path as the document names it, "/api/needs/{id}". */
  path: string
  status: number
  /** The Content-Type header, or null without one. */
  contentType: string | null
  /** The body's text, "" without body. */
  body: string
}

const schemasID = 'primeur:components'

/** Points a document reference at the schemas registered under schemasID. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs)
  if (value === null || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [key, v] of Object.entries(value)) {
    out[key] =
      key === '$ref' && typeof v === 'string' ? v.replace('#/components/schemas/', `${schemasID}#/$defs/`) : rewriteRefs(v)
  }
  return out
}

/** Whether a media type is JSON (application/json, application/problem+json). */
function isJSON(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json')
}

/** Checks answers against the responses of one document. */
export class Contract {
  private readonly ajv: Ajv2020
  private readonly validators = new Map<string, ValidateFunction>()

  constructor(private readonly doc: Document) {
    // strict: an unknown keyword or format fails the compilation instead of
    // being ignored, so nothing in a schema goes unchecked.
    this.ajv = new Ajv2020({ strict: true, allErrors: true })
    addFormats.default(this.ajv)
    // OpenAPI's formats: the number's kind, checked on its value.
    this.ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 })
    this.ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) })
    this.ajv.addFormat('float', { type: 'number', validate: (n: number) => Number.isFinite(n) })
    this.ajv.addFormat('double', { type: 'number', validate: (n: number) => Number.isFinite(n) })
    this.ajv.addSchema({ $id: schemasID, $defs: rewriteRefs(doc.components.schemas) as Record<string, object> })
  }

  /** Compiles every response schema of the document (an error names the first that ajv refuses). */
  compileAll(): number {
    let n = 0
    for (const [path, item] of Object.entries(this.doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const [status, res] of Object.entries(op.responses)) {
          for (const mediaType of Object.keys(res.content ?? {})) {
            if (isJSON(mediaType) && this.validator(method, path, status, mediaType)) n++
          }
        }
      }
    }
    return n
  }

  private validator(method: string, path: string, status: string, mediaType: string): ValidateFunction | undefined {
    const key = `${method} ${path} ${status} ${mediaType}`
    let v = this.validators.get(key)
    if (!v) {
      const schema = this.doc.paths[path]?.[method]?.responses[status]?.content?.[mediaType]?.schema
      if (!schema) return undefined
      v = this.ajv.compile(rewriteRefs(schema) as object)
      this.validators.set(key, v)
    }
    return v
  }

  /** What in the answer the document does not allow; empty when it allows it all. */
  check(a: Answer): string[] {
    const method = a.method.toLowerCase()
    const op = this.doc.paths[a.path]?.[method]
    const where = `${a.method} ${a.path} answered ${a.status}`
    if (!op) return [`${where}: no such operation in the document`]
    const status = op.responses[String(a.status)] ? String(a.status) : 'default'
    const res = op.responses[status]
    if (!res) return [`${where}: a status the document does not list`]
    const content = res.content ?? {}
    if (a.body === '') {
      return Object.keys(content).length === 0 || a.status === 204 ? [] : [`${where} without a body`]
    }
    const mediaType = (a.contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
    if (!(mediaType in content)) {
      return [`${where} with ${mediaType || 'no content type'}, which the document does not list (${Object.keys(content).join(', ')})`]
    }
    if (!isJSON(mediaType)) return []
    const validate = this.validator(method, a.path, status, mediaType)
    if (!validate) return []
    let value: unknown
    try {
      value = JSON.parse(a.body)
    } catch (err) {
      return [`${where}: the body is not JSON (${String(err)})`]
    }
    if (validate(value)) return []
    return (validate.errors ?? []).map((e) => `${where} (${op.operationId}): ${e.instancePath || '/'} ${e.message ?? ''}`)
  }
}
