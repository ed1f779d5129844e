package core

// Version is the version of this build. Release builds set it with
// -ldflags "-X patrimonio/core.Version=1.2.3". It is the only package variable meant to be
// written, and only by the linker.
var Version = "dev"
