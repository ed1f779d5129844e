package socket

import (
	"bytes"
	"testing"
	"time"
)

func TestTheSendQueueIsBoundedInBytesAndTimesOutASlowConsumer(t *testing.T) {
	q := newSendQueue(10)
	closing := make(chan struct{})
	if err := q.push([]byte("0123456789abc"), time.Hour, closing); err != nil {
		t.Fatal("a message larger than the bound must pass into an empty queue")
	}
	if err := q.push([]byte("x"), 20*time.Millisecond, closing); err != errQueueTimeout {
		t.Fatalf("a full queue: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- q.push([]byte("y"), time.Hour, closing) }()
	if msg, ok := q.pop(); !ok || string(msg) != "0123456789abc" {
		t.Fatal(msg, ok)
	}
	if err := <-done; err != nil {
		t.Fatalf("room was made: %v", err)
	}
	go func() { done <- q.push([]byte("0123456789"), time.Hour, closing) }()
	close(closing)
	if err := <-done; err != errQueueClosed {
		t.Fatalf("closing: %v", err)
	}
}

func TestTheRateLimitAllowsBurstsThenTheRate(t *testing.T) {
	b := tokenBucket{rate: 10, burst: 5}
	now := time.Unix(1000, 0)
	for i := range 5 {
		if !b.take(now) {
			t.Fatalf("message %d of a burst of 5", i)
		}
	}
	if b.take(now) {
		t.Fatal("a sixth message at once")
	}
	if !b.take(now.Add(100 * time.Millisecond)) {
		t.Fatal("a message after 1/rate")
	}
}

// The read buffers are kept between messages (the list outlives a GC), at most 8 of them, and
// none larger than maxKeptReadBuffer: a burst leaves a bounded amount behind. A buffer taken
// again comes back empty.
func TestReadBuffersAreKeptBounded(t *testing.T) {
	for readBuffers.Len() > 0 {
		readBuffers.Get()
	}
	const kept = 8
	var bufs []*bytes.Buffer
	for range kept + 3 {
		buf := getReadBuffer()
		buf.Write(make([]byte, 1000))
		bufs = append(bufs, buf)
	}
	for _, buf := range bufs {
		putReadBuffer(buf)
	}
	if readBuffers.Len() != kept {
		t.Fatalf("%d buffers kept, want %d", readBuffers.Len(), kept)
	}
	if got := getReadBuffer(); got.Len() != 0 || got.Cap() < 1000 {
		t.Errorf("a kept buffer came back with %d bytes in it and room for %d, want empty with its room", got.Len(), got.Cap())
	}
	for readBuffers.Len() > 0 {
		readBuffers.Get()
	}
	putReadBuffer(bytes.NewBuffer(make([]byte, 0, maxKeptReadBuffer+1)))
	if readBuffers.Len() != 0 {
		t.Error("a buffer over maxKeptReadBuffer was kept")
	}
}
