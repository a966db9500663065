package jobs

import (
	"errors"
	"fmt"
)

// cadence is how often a Schedule runs.
type cadence int

const (
	everyMinutes cadence = iota + 1
	hourly
	daily
)

// Schedule is when the daemon runs a job, in the business time zone:
// every n minutes, every hour at a minute, or every day at a time. It is
// declared once, with the job (All): the cron line of the daemon's
// scheduler (Cron) and the French text of `primeur jobs list` (String)
// both derive from it. Build one with EveryMinutes, Hourly or Daily.
type Schedule struct {
	cadence      cadence
	period       int // minutes, for EveryMinutes
	hour, minute int
	note         string
}

// EveryMinutes runs a job every n minutes from the hour's start; n must
// divide the hour (5 runs at :00, :05 … :55).
func EveryMinutes(n int) Schedule { return Schedule{cadence: everyMinutes, period: n} }

// Hourly runs a job every hour at minute.
func Hourly(minute int) Schedule { return Schedule{cadence: hourly, minute: minute} }

// Daily runs a job every day at hour:minute.
func Daily(hour, minute int) Schedule { return Schedule{cadence: daily, hour: hour, minute: minute} }

// Noting returns the schedule with a note the French text gives in
// parentheses after the time (what a run does depending on the day).
func (s Schedule) Noting(note string) Schedule {
	s.note = note
	return s
}

// ErrSchedule is the error of a schedule that no cron line can express.
var ErrSchedule = errors.New("jobs: invalid schedule")

// Cron returns the schedule's cron line (minute, hour, day of month, month,
// day of week), or ErrSchedule: the zero Schedule, a period that does not
// divide the hour, a minute or an hour out of range.
func (s Schedule) Cron() (string, error) {
	switch {
	case s.cadence == everyMinutes && s.period == 1:
		return "* * * * *", nil
	case s.cadence == everyMinutes && s.period > 1 && s.period < 60 && 60%s.period == 0:
		return fmt.Sprintf("*/%d * * * *", s.period), nil
	case s.cadence == hourly && validMinute(s.minute):
		return fmt.Sprintf("%d * * * *", s.minute), nil
	case s.cadence == daily && validMinute(s.minute) && s.hour >= 0 && s.hour < 24:
		return fmt.Sprintf("%d %d * * *", s.minute, s.hour), nil
	}
	return "", fmt.Errorf("%w: %+v", ErrSchedule, s)
}

func validMinute(m int) bool { return m >= 0 && m < 60 }

// String is the schedule in French, as `primeur jobs list` prints it:
// "toutes les 5 minutes", "toutes les heures", "toutes les heures, à la
// demie", "tous les jours à 06:00", followed by the note in parentheses.
func (s Schedule) String() string {
	var text string
	switch s.cadence {
	case everyMinutes:
		text = fmt.Sprintf("toutes les %d minutes", s.period)
		if s.period == 1 {
			text = "toutes les minutes"
		}
	case hourly:
		switch s.minute {
		case 0:
			text = "toutes les heures"
		case 15:
			text = "toutes les heures, au quart"
		case 30:
			text = "toutes les heures, à la demie"
		case 45:
			text = "toutes les heures, à moins le quart"
		default:
			text = fmt.Sprintf("toutes les heures, à la minute %d", s.minute)
		}
	case daily:
		text = fmt.Sprintf("tous les jours à %02d:%02d", s.hour, s.minute)
	default:
		text = "jamais"
	}
	if s.note != "" {
		text += " (" + s.note + ")"
	}
	return text
}
