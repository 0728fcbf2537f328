# cmake --install: headers under include/granary (the public granary/*.h plus the layer headers
# they include), the libraries, and a package config so that find_package(Granary) and
# target_link_libraries(app Granary::granary) work.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

add_library(granary INTERFACE)
add_library(Granary::granary ALIAS granary)
target_link_libraries(granary INTERFACE granary_core)
target_include_directories(granary INTERFACE
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)

set(GRANARY_INSTALLED_TARGETS granary granary_core granary_engine granary_hashtables granary_alloc granary_simd)
install(TARGETS ${GRANARY_INSTALLED_TARGETS} EXPORT GranaryTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/granary DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
foreach(layer alloc simd hashtables engine)
    install(DIRECTORY ${layer}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/granary/${layer}
        FILES_MATCHING PATTERN "*.h")
endforeach()
install(EXPORT GranaryTargets NAMESPACE Granary::
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Granary)
configure_package_config_file(cmake/GranaryConfig.cmake.in
    ${CMAKE_CURRENT_BINARY_DIR}/GranaryConfig.cmake
    INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Granary)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/GranaryConfigVersion.cmake
    COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/GranaryConfig.cmake
    ${CMAKE_CURRENT_BINARY_DIR}/GranaryConfigVersion.cmake
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Granary)
