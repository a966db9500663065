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

/** The daemon's refusal of a HEIC photo (core/images MsgHEIC), said on the phone before anything is kept. */
export const MSG_HEIC =
  "Les photos HEIC (format des iPhone) ne sont pas lisibles ici : envoyez la photo en JPEG (sur l'iPhone, Réglages > Appareil photo > Formats > « Le plus compatible »), ou une capture d'écran de la photo."

/** Whether a file is a HEIC/HEIF photo, by its type or its name. */
export function isHeic(file: { type: string; name: string }): boolean {
  return /^image\/hei[cf](-sequence)?$/i.test(file.type) || /\.hei[cf]$/i.test(file.name)
}

/**
 * The photo, scaled down and as JPEG, in base64; the file as it is where
 * the browser cannot draw it (the daemon says what is wrong with it), but
 * a HEIC photo the browser cannot draw is refused here with the daemon's
 * message (an Error of MSG_HEIC), so that the reception is not refused
 * later, once the network is back.
 */
export async function photoForUpload(file: File): Promise<string> {
  let bitmap: ImageBitmap
  try {
    bitmap = await createImageBitmap(file)
  } catch {
    if (isHeic(file)) throw new Error(MSG_HEIC)
    return base64Of(file)
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
