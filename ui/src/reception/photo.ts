// A photo taken on the phone, made small before it is kept in the queue and
// sent: its longest side at most 1600 px (the daemon keeps no more), as a
// JPEG. The browser draws it the right way up (its EXIF orientation
// applied by createImageBitmap) and the canvas keeps no metadata. The daemon
// checks and encodes it again all the same (core/images).

/** The longest side of a photo sent, px. */
export const PHOTO_SIDE = 1600

/** The bytes of a blob as base64 (what the JSON body carries). */
export function base64Of(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''))
    reader.onerror = () => reject(reader.error ?? new Error('lecture impossible'))
    reader.readAsDataURL(blob)
  })
}

/** The photo, scaled down and as JPEG, in base64; the file as it is where the browser cannot draw it. */
export async function photoForUpload(file: File): Promise<string> {
  let bitmap: ImageBitmap
  try {
    bitmap = await createImageBitmap(file)
  } catch {
    return base64Of(file) // the daemon says what is wrong with it
  }
  const scale = Math.min(1, PHOTO_SIDE / Math.max(bitmap.width, bitmap.height))
  const canvas = document.createElement('canvas')
  canvas.width = Math.max(1, Math.round(bitmap.width * scale))
  canvas.height = Math.max(1, Math.round(bitmap.height * scale))
  const ctx = canvas.getContext('2d')
  if (!ctx) return base64Of(file)
  ctx.fillStyle = '#fff'
  ctx.fillRect(0, 0, canvas.width, canvas.height)
  ctx.drawImage(bitmap, 0, 0, canvas.width, canvas.height)
  bitmap.close()
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.85))
  return blob ? base64Of(blob) : base64Of(file)
}
