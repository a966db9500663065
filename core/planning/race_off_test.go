//go:build !race

package planning_test

const raceDetector = false
