package fx

import (
	"context"
	"time"
	_ "time/tzdata" // Europe/Berlin on hosts without a time zone database
)

// The ECB publishes its reference rates around 16:00 CET on TARGET working days. The scheduler
// loads at PublishHour:PublishMinute Frankfurt time, Monday to Friday, and when the day's rates are
// not there yet (late publication, a TARGET holiday, the network) tries again every RetryEvery
// until GiveUpHour; the next working day starts over. Failures never stop the server.
const (
	PublishHour   = 16
	PublishMinute = 30
	GiveUpHour    = 20
	RetryEvery    = 30 * time.Minute
)

var frankfurt = func() *time.Location {
	loc, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		return time.FixedZone("CET", 3600)
	}
	return loc
}()

// NextSlot is the first load time after now: today's publication time when it is a weekday and
// that time has not passed, otherwise the next weekday's.
func NextSlot(now time.Time) time.Time {
	local := now.In(frankfurt)
	slot := time.Date(local.Year(), local.Month(), local.Day(), PublishHour, PublishMinute, 0, 0, frankfurt)
	for !slot.After(now) || slot.Weekday() == time.Saturday || slot.Weekday() == time.Sunday {
		slot = time.Date(slot.Year(), slot.Month(), slot.Day()+1, PublishHour, PublishMinute, 0, 0, frankfurt)
	}
	return slot
}

// startupRetries are the waits after a failed load at start (no network yet, the ECB down).
var startupRetries = []time.Duration{time.Minute, 5 * time.Minute, 15 * time.Minute, 30 * time.Minute, time.Hour}

// Run loads the rates now and then on schedule until ctx ends. Call it in its own goroutine: it
// blocks, and it never ends the server over a failed load (each one is logged by Update).
func (s *Service) Run(ctx context.Context) {
	wait := func(d time.Duration) bool {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
			return true
		}
	}
	// At start: the full history when nothing is held, otherwise what is missing. Retry a few
	// times, but never past the first scheduled load.
	first := NextSlot(s.Now())
	for attempt := 0; s.Update(ctx) != nil && ctx.Err() == nil; attempt++ {
		d := startupRetries[min(attempt, len(startupRetries)-1)]
		if s.Now().Add(d).After(first) || !wait(d) {
			break
		}
	}
	for {
		slot := NextSlot(s.Now())
		if !wait(time.Until(slot)) {
			return
		}
		day := slot.In(frankfurt).Format(time.DateOnly)
		giveUp := time.Date(slot.Year(), slot.Month(), slot.Day(), GiveUpHour, 0, 0, 0, frankfurt)
		for {
			err := s.Update(ctx)
			if ctx.Err() != nil {
				return
			}
			if latest, _ := s.LatestDate(ctx, SourceECB); err == nil && latest >= day {
				break
			}
			if s.Now().Add(RetryEvery).After(giveUp) {
				s.logger.InfoContext(ctx, "exchange rates: no ECB rates for today (a TARGET holiday or a late publication); trying again on the next working day", "day", day)
				break
			}
			if !wait(RetryEvery) {
				return
			}
		}
	}
}
