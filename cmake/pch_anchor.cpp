// The one source of the precompiled-header holders (cmake/PrecompiledHeaders.cmake): CMake
// compiles a target's precompiled header only for a target that has a source.
