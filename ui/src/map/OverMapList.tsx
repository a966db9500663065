// A list of shops over the map, along its bottom: a stack of more shops
// than it spreads (StackMarker), or a cluster at the largest zoom
// (ClusterMarker, issue 37). Its title, a close button, Escape, and each
// shop with, for a producer, the link to its needs.
import { CloseButton, Group, List, Paper, Text } from '@mantine/core'
import type { ReactNode } from 'react'
import { NeedsLink } from './NeedsLink'

export interface OverMapShop {
  _id: string
  name: string
}

export function OverMapList({
  id,
  testId,
  title,
  bottom,
  maxHeight,
  shops,
  ownShopId,
  shopLink,
  onClose,
  children,
}: {
  id: string
  testId: string
  /** Its title and the region's name. */
  title: string
  /** Pixels from the map's bottom (above its credits). */
  bottom: number
  maxHeight: number
  shops: readonly OverMapShop[]
  ownShopId?: string
  shopLink?: (shopId: string) => string
  onClose: () => void
  /** What it says before its shops (loading, a failure, too many to list). */
  children?: ReactNode
}) {
  return (
    <Paper
      id={id}
      data-testid={testId}
      role="region"
      aria-label={title}
      withBorder
      shadow="md"
      p="xs"
      pos="absolute"
      left={8}
      right={8}
      bottom={bottom}
      style={{ maxHeight, overflowY: 'auto' }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault()
          onClose()
        }
      }}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text fw={700} size="sm">
          {title}
        </Text>
        <CloseButton aria-label="Fermer la liste de ces magasins" onClick={onClose} />
      </Group>
      {children}
      {shops.length > 0 ? (
        <List listStyleType="none" spacing={6}>
          {shops.map((shop) => (
            <List.Item key={shop._id}>
              <Group gap="sm" wrap="nowrap" justify="space-between">
                <Text size="sm" fw={600}>
                  {shop.name}
                  {shop._id === ownShopId ? ' (vous)' : ''}
                </Text>
                {shopLink ? <NeedsLink href={shopLink(shop._id)} name={shop.name} /> : null}
              </Group>
            </List.Item>
          ))}
        </List>
      ) : null}
    </Paper>
  )
}
