import { Button, Container, Grid, Group, Stack, Text, Title } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { useEffect, useMemo } from 'react'
import { useLocation } from 'wouter'
import { ProfileForm } from '../components/ProfileForm'
import { shopLonLat } from '../map/geo'
import { ShopMap } from '../map/ShopMap'
import { RewardsPanel } from '../rewards/RewardsPanel'
import { paths } from '../routing'
import { PurchasesChart } from '../stats/PurchasesChart'
import { useScores } from '../store/dashboard'
import { useDistributors, useUser } from '../store/hooks'
import { loadRewards, loadScores } from '../store/rewards'
import { logout } from '../store/session'
import type { DistributorEntry } from '../types'

/**
 * Home of both roles (PRODUCT §2 "Dashboard"): the map of shops, the shop's
 * ambassador panel or the producer's heading, the statistics, then a footer
 * with the profile toggle and the quit button.
 */
export function Dashboard() {
  const user = useUser()
  const shops = useDistributors() as readonly DistributorEntry[]
  const scores = useScores()
  const [, navigate] = useLocation()
  const [profileOpen, profile] = useDisclosure(false)
  const type = user?.type

  // The map's scores and the shop's standing are read apart from the user
  // load (their cost follows the platform's trade, not the user).
  useEffect(() => {
    if (!type) return
    void loadScores()
    if (type === 'distributor') void loadRewards()
  }, [type])

  // A producer's farm, from its profile coordinates (latitude then longitude).
  const home = useMemo(() => {
    if (user?.type !== 'producer') return null
    const lonLat = shopLonLat(user)
    return lonLat ? { name: user.name, lonLat } : null
  }, [user])

  if (!user) return null
  const producer = user.type === 'producer'

  const quit = async () => {
    await logout()
    navigate('/')
  }

  const map = (
    <ShopMap
      shops={shops}
      scores={scores}
      ownShopId={producer ? undefined : user._id}
      home={home}
      onShopClick={producer ? (id) => navigate(paths.prodNeeds(id)) : undefined}
    />
  )

  return (
    <Container size="xl" py="md" pb={96}>
      <Stack gap="md">
        {producer ? (
          <Stack gap={2}>
            <Title order={1} size="h2">
              Planifier mes ventes
            </Title>
            <Text c="dimmed">
              Je choisis un magasin sur la carte, je visualise ses besoins et je propose mes produits.
            </Text>
          </Stack>
        ) : (
          <Group gap="sm" align="baseline">
            <Title order={1} size="h2">
              {user.name || 'Tableau de bord'}
            </Title>
            <Text c="dimmed">Espace magasin</Text>
          </Group>
        )}
        {producer ? (
          map
        ) : (
          <Grid gap="lg" align="stretch">
            <Grid.Col span={{ base: 12, md: 8 }}>{map}</Grid.Col>
            <Grid.Col span={{ base: 12, md: 4 }}>
              <RewardsPanel />
            </Grid.Col>
          </Grid>
        )}
        <PurchasesChart />
        {profileOpen ? <ProfileForm key={user.updatedAt} user={user} onClose={profile.close} /> : null}
        <Group component="footer" justify="space-between" aria-label="Compte">
          <Button variant="light" onClick={profile.toggle} aria-expanded={profileOpen}>
            {user.email}
          </Button>
          <Button variant="subtle" color="red" onClick={quit}>
            Quitter
          </Button>
        </Group>
      </Stack>
    </Container>
  )
}
