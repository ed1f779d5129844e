package freelist_test

import (
	"runtime"
	"testing"

	"patrimonio/sync/internal/freelist"
)

func TestAListKeepsAtMostItsCapacityOfAcceptedValues(t *testing.T) {
	l := freelist.New(3, func(b []byte) bool { return cap(b) <= 100 })
	if _, ok := l.Get(); ok {
		t.Fatal("an empty list gave a value")
	}
	for range 5 {
		l.Put(make([]byte, 0, 50))
	}
	l.Put(make([]byte, 0, 101))
	if l.Len() != 3 {
		t.Fatalf("%d values kept, want 3", l.Len())
	}
	runtime.GC()
	runtime.GC()
	for i := range 3 {
		b, ok := l.Get()
		if !ok || cap(b) != 50 {
			t.Fatalf("value %d after two collections: %v (cap %d), want a kept one", i, ok, cap(b))
		}
	}
	if _, ok := l.Get(); ok {
		t.Error("the refused value was kept")
	}
}
