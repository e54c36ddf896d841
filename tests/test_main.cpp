// The single translation unit that defines the Boost.Test main for each test executable.
#define BOOST_TEST_MODULE grainlab
#define BOOST_TEST_DYN_LINK
#include <boost/test/unit_test.hpp>
