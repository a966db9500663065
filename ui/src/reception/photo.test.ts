import { describe, expect, it } from 'vitest'
import { MSG_HEIC, isHeic, photoForUpload } from './photo'

describe('a photo on the phone', () => {
  it('knows a HEIC photo by its type or its name', () => {
    expect(isHeic({ type: 'image/heic', name: 'IMG_0001.HEIC' })).toBe(true)
    expect(isHeic({ type: '', name: 'IMG_0001.heif' })).toBe(true)
    expect(isHeic({ type: 'image/heif-sequence', name: 'x' })).toBe(true)
    expect(isHeic({ type: 'image/jpeg', name: 'IMG_0001.jpg' })).toBe(false)
  })
  it("refuses a HEIC photo the browser cannot draw with the daemon's message (core/images MsgHEIC)", async () => {
    globalThis.createImageBitmap = () => Promise.reject(new Error('undecodable'))
    const heic = new File([new Uint8Array([0, 0, 0, 24, 102, 116, 121, 112])], 'IMG_0001.HEIC', { type: 'image/heic' })
    await expect(photoForUpload(heic)).rejects.toThrow(MSG_HEIC)
    const other = new File([new Uint8Array([1, 2, 3])], 'note.txt', { type: 'text/plain' })
    expect(await photoForUpload(other)).toBe('AQID') // sent as it is: the daemon says what is wrong with it
  })
})
