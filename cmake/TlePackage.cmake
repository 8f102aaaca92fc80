# The CMake package consumers get with find_package(TLE): one config for the build tree
# (TLE_DIR=<build>), one for the install tree (<prefix>/lib/cmake/TLE).
include(CMakePackageConfigHelpers)

# Build tree.
set(TLE_CONFIG_STDLIB_DIR "${PROJECT_SOURCE_DIR}/stdlib/include")
set(TLE_CONFIG_RUNTIME_DIR "${PROJECT_SOURCE_DIR}/runtime/include")
set(TLE_CONFIG_TLEC "${PROJECT_BINARY_DIR}/bin/tlec")
set(TLE_CONFIG_DISTRIBUTED_SOURCE "${PROJECT_SOURCE_DIR}/runtime/src/distributed.cpp")
configure_package_config_file(cmake/TLEConfig.cmake.in "${PROJECT_BINARY_DIR}/TLEConfig.cmake"
  INSTALL_DESTINATION "${PROJECT_BINARY_DIR}" INSTALL_PREFIX "${PROJECT_BINARY_DIR}"
  PATH_VARS TLE_CONFIG_STDLIB_DIR TLE_CONFIG_RUNTIME_DIR TLE_CONFIG_TLEC TLE_CONFIG_DISTRIBUTED_SOURCE)
configure_file(cmake/AddTleKernel.cmake "${PROJECT_BINARY_DIR}/AddTleKernel.cmake" COPYONLY)
write_basic_package_version_file("${PROJECT_BINARY_DIR}/TLEConfigVersion.cmake" COMPATIBILITY SameMinorVersion)

# Install tree.
set(TLE_CONFIG_STDLIB_DIR "include")
set(TLE_CONFIG_RUNTIME_DIR "include")
set(TLE_CONFIG_TLEC "bin/tlec")
set(TLE_CONFIG_DISTRIBUTED_SOURCE "share/tle/runtime/distributed.cpp")
configure_package_config_file(cmake/TLEConfig.cmake.in "${PROJECT_BINARY_DIR}/install/TLEConfig.cmake"
  INSTALL_DESTINATION lib/cmake/TLE PATH_VARS TLE_CONFIG_STDLIB_DIR TLE_CONFIG_RUNTIME_DIR TLE_CONFIG_TLEC
  TLE_CONFIG_DISTRIBUTED_SOURCE)
install(FILES "${PROJECT_BINARY_DIR}/install/TLEConfig.cmake" "${PROJECT_BINARY_DIR}/TLEConfigVersion.cmake"
              cmake/AddTleKernel.cmake DESTINATION lib/cmake/TLE)
install(DIRECTORY stdlib/include/ runtime/include/ DESTINATION include)
install(DIRECTORY stdlib/tle DESTINATION share/tle)
install(FILES runtime/src/distributed.cpp DESTINATION share/tle/runtime)
