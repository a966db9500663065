import { Anchor } from '@mantine/core'
import { Link } from 'wouter'

/** The link of a listed shop to its needs: its name, for a screen reader, after the visible text. */
export function NeedsLink({ href, name }: { href: string; name: string }) {
  return (
    <Anchor component={Link} href={href} size="sm" aria-label={`Voir ses besoins : ${name}`}>
      Voir ses besoins
    </Anchor>
  )
}
